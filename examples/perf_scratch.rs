fn main() {
    let tiny = br#"{"todos":[{"id":"a","content":"b","status":"pending"}]}"#;
    let mut c = 0;
    for _ in 0..10000 {
        if let planloop::validate::write_todos::Outcome::Valid(f) =
            planloop::validate::write_todos::read(std::hint::black_box(tiny), false)
        {
            c += f.todos.len()
        }
    }
    println!("{c}");
}
