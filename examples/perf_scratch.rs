fn main() {
    use planloop::wasm::{pl_call, pl_input};
    let tiny = br#"{"todos":[{"id":"step_0","content":"Read the note","status":"in_progress"}]}"#;
    let ptr = pl_input(4096);
    unsafe { std::ptr::copy_nonoverlapping(b"[]".as_ptr(), ptr, 2) };
    assert_eq!(pl_call(10, 0, 2, 0.0, true), 3);
    let handle = 1 << 20 | 0;
    let ptr = pl_input(4096);
    unsafe { std::ptr::copy_nonoverlapping(tiny.as_ptr(), ptr, tiny.len()) };
    let op: u32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(13);
    let n = 20_000;
    let t = std::time::Instant::now();
    let mut s = 0;
    for i in 0..n {
        s += pl_call(op, handle, tiny.len(), 1000.0 + i as f64, true);
    }
    println!("{:.0} ns status-sum {s}", t.elapsed().as_nanos() as f64 / n as f64);
}
