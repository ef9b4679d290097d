fn main() {
    let four = br#"{"todos":[{"id":"step_0","content":"Read the quarterly report note and list the revenue lines","status":"in_progress"},{"id":"step_1","content":"Search the vault for the previous quarter's figures","status":"pending"},{"id":"step_2","content":"Compute the change per line and the total","status":"pending"},{"id":"step_3","content":"Write the summary note with a table and a short conclusion","status":"pending"}],"focus":"reading the report"}"#;
    let tiny = br#"{"todos":[{"id":"a","content":"b","status":"pending"}]}"#;
    let long = format!(r#"{{"todos":[{{"id":"a","content":"{}","status":"pending"}}]}}"#, "x".repeat(4000));
    for (name, text) in [("four", &four[..]), ("tiny", &tiny[..]), ("long", long.as_bytes())] {
        let n = 1_000_000;
        let t = std::time::Instant::now();
        let mut c = 0;
        for _ in 0..n {
            if let planloop::validate::write_todos::Outcome::Valid(f) =
                planloop::validate::write_todos::read(std::hint::black_box(text), false)
            {
                c += f.todos.len()
            }
        }
        println!("{name}: {:.0} ns ({c})", t.elapsed().as_nanos() as f64 / n as f64);
    }
}
