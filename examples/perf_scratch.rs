use planloop::json::value::Value;
use planloop::plan::todos::{self, Args};
fn bench(label: &str, n: u32, mut f: impl FnMut() -> usize) {
    let t = std::time::Instant::now();
    let mut c = 0;
    for _ in 0..n {
        c += f();
    }
    println!("{label:40} {:?} ({c})", t.elapsed() / n);
}
fn main() {
    let text = br#"{"todos":[{"id":"step_0","content":"Read the quarterly report note and list the revenue lines","status":"in_progress"},{"id":"step_1","content":"Search the vault for the previous quarter's figures","status":"pending"},{"id":"step_2","content":"Compute the change per line and the total","status":"pending"},{"id":"step_3","content":"Write the summary note with a table and a short conclusion","status":"pending"}],"focus":"reading the report"}"#;
    let invalid = br#"{"todos":[{"id":"a","content":"Read","status":"done"}]}"#;
    let n = 200_000;
    bench("read valid", n, || match planloop::validate::write_todos::read(std::hint::black_box(text), false) {
        planloop::validate::write_todos::Outcome::Valid(f) => f.todos.len(),
        _ => 0,
    });
    bench("from_utf8 valid", n, || std::str::from_utf8(std::hint::black_box(text)).map_or(0, |s| s.len()));
    bench("parse tree invalid", n, || planloop::json::parse(std::hint::black_box(invalid)).map_or(0, |_| 1));
    bench("validate invalid", n, || {
        match todos::validate(Args::<&Value>::Text(std::hint::black_box(invalid))).unwrap() {
            todos::WriteTodosValidation::Failure { error, .. } => error.issues.len(),
            _ => 0,
        }
    });
    bench("validate+json invalid", n, || {
        let v = todos::validate(Args::<&Value>::Text(std::hint::black_box(invalid))).unwrap();
        serde_json::to_string(&v).unwrap().len()
    });
}
