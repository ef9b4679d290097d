use planloop::wasm::{pl_call, pl_input};

fn call(op: u32, handle: u32, input: &str, now: f64) -> u32 {
    let ptr = pl_input(input.len().max(1));
    unsafe { std::ptr::copy_nonoverlapping(input.as_ptr(), ptr, input.len()) };
    pl_call(op, handle, input.len(), now, true)
}

fn main() {
    let n: u32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(2000);
    assert_eq!(
        call(50, 0, r#"[{"maxIterations":100000,"timeoutMs":86400000,"tools":{"read":["read_file"]}}]"#, 0.0),
        3
    );
    let session = 1 << 20;
    assert_eq!(call(56, session, r#"[{"message":"Summarise the Q3 revenue notes.","nowMs":0}]"#, 0.0), 0);
    let t = std::time::Instant::now();
    for i in 1..=n {
        let response = format!(
            r#"[{{"text":null,"toolCalls":[{{"id":"call_{i}","name":"read_file","args":{{"path":"notes/{i}.md","query":"revenue by product line, quarter over quarter","options":{{"maxLines":400,"includeFrontmatter":false,"encoding":"utf8","tags":["finance","q3"]}}}}}}]}},{i}]"#
        );
        assert_eq!(call(60, session, &response, 0.0), 0);
        let results = format!(r#"[[{{"id":"call_{i}","output":"Q3 revenue: 4.2M (+8%)."}}],{i}]"#);
        assert_eq!(call(61, session, &results, 0.0), 0);
    }
    println!("{:.1} µs per decision", t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
}
