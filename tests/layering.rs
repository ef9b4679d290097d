//! The pure core (`src/` outside `src/wasm/`) knows nothing of its binding: no code that a
//! module build compiles otherwise than the native tests do (a feature or a target that
//! changes what it does), and no JS types. What the native tests run is then what each
//! wasm module runs.

use std::fs;
use std::path::Path;

/// Marks of code that depends on how or for what the crate is built, or on JS.
const BINDING_MARKS: [&str; 5] = ["cfg(feature", "cfg!(feature", "target_arch", "wasm_bindgen", "js_sys"];

fn rust_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn the_core_has_no_code_that_depends_on_its_build_or_on_js() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut found = Vec::new();
    for path in files {
        let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if relative.starts_with("src/wasm/") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if let Some(mark) = BINDING_MARKS.iter().find(|mark| line.contains(**mark)) {
                found.push(format!("{relative}:{}: {mark}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "the core depends on its build or on JS:\n{}", found.join("\n"));
}
