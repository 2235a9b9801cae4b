//! The library's layers, as `docs/architecture.md` lists them, hold in the
//! code: every `use crate::…` (and every `crate::…` path) of a source file
//! reaches only its own layer or those below, and no imports go round in a
//! circle. A failure names the file and line of the import at fault.
//!
//! Test modules (`#[cfg(test)]`, at the end of a file) may use anything, as
//! integration tests do; a module's `pub use` of its own submodules is its
//! front, not an import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One import: where it is, and the module path it names.
#[derive(Debug, Clone)]
struct Import {
    line: usize,
    path: Vec<String>,
    reexport: bool,
}

/// A source file under `src/`: its path there (`compile/mod.rs`) and its
/// module path (`["compile"]`).
#[derive(Debug, Clone)]
struct Module {
    file: String,
    path: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn source_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root().join("src")).unwrap();
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn module_of(file: &str) -> Module {
    let stem = file.trim_end_matches(".rs");
    let mut path: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(
        path.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        path.pop();
    }
    Module {
        file: file.to_string(),
        path,
    }
}

/// The layers of `docs/architecture.md`: rows `| N | what | files |`, the
/// files as paths under `src/` in backquotes, a folder as `dir/**`.
fn layers() -> Vec<(u32, String, Vec<String>)> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let mut layers = Vec::new();
    for row in doc.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let Some(Ok(number)) = cells.first().map(|c| c.parse::<u32>()) else {
            continue;
        };
        let patterns = cells
            .get(2)
            .unwrap()
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|p| p.trim_start_matches("src/").to_string())
            .collect();
        layers.push((number, cells[1].to_string(), patterns));
    }
    assert!(!layers.is_empty(), "docs/architecture.md lists no layers");
    layers
}

fn matches(pattern: &str, file: &str) -> bool {
    match pattern.strip_suffix("/**") {
        Some(dir) => file.starts_with(&format!("{dir}/")),
        None => pattern == file,
    }
}

/// The code of a file before its test module, comments blanked (so line
/// numbers stay).
fn code_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        let code = match line.trim_start().starts_with("//") {
            true => "",
            false => line,
        };
        lines.push(code.to_string());
    }
    lines
}

/// Expands a use tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree);
        return vec![
            path.split("::")
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
        ];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|rest| {
            let rest = match rest.first().map(String::as_str) {
                Some("self") => rest[1..].to_vec(),
                _ => rest,
            };
            prefix.iter().cloned().chain(rest).collect()
        })
        .collect()
}

/// Makes a path absolute (from the crate root): `super::`, `self::` and
/// `crate::` resolved; paths into other crates give `None`.
fn absolute(module: &Module, path: &[String]) -> Option<Vec<String>> {
    let mut base = module.path.clone();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    Some(base.into_iter().chain(rest.iter().cloned()).collect())
}

/// Every import of a file: its `use` statements (possibly over several
/// lines) and the `crate::…` paths in its code.
fn imports(text: &str) -> Vec<Import> {
    let lines = code_lines(text);
    let mut found = Vec::new();
    let mut statement: Option<(usize, String, bool)> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if statement.is_none() {
            let public = trimmed.starts_with("pub use ") || trimmed.starts_with("pub(crate) use ");
            if let Some(start) = trimmed.find("use ").filter(|&s| s == 0 || public) {
                statement = Some((i + 1, String::new(), public));
                let body = &trimmed[start + 4..];
                statement.as_mut().unwrap().1.push_str(body);
            }
        } else if let Some((_, body, _)) = statement.as_mut() {
            body.push_str(trimmed);
        }
        if let Some((at, body, public)) = statement.take() {
            match body.find(';') {
                Some(end) => {
                    for path in expand(&body[..end]) {
                        found.push(Import {
                            line: at,
                            path,
                            reexport: public,
                        });
                    }
                }
                None => statement = Some((at, body, public)),
            }
        }
        // Paths written out in the code.
        let mut from = 0;
        while let Some(at) = line[from..].find("crate::") {
            let start = from + at;
            from = start + 7;
            let before = line[..start].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            if trimmed.starts_with("use ") || trimmed.starts_with("pub use ") {
                continue;
            }
            let path: Vec<String> = line[start..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            found.push(Import {
                line: i + 1,
                path,
                reexport: false,
            });
        }
    }
    found
}

/// The file that defines the longest prefix of `path`.
fn target<'a>(modules: &'a [Module], path: &[String]) -> Option<&'a Module> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.iter().find(|m| m.path == path[..n]))
}

struct Graph {
    layer_of: BTreeMap<String, (u32, String)>,
    edges: BTreeMap<String, BTreeMap<String, usize>>,
    problems: Vec<String>,
}

fn graph() -> Graph {
    let mut files = Vec::new();
    source_files(&root().join("src"), &mut files);
    files.sort();
    let modules: Vec<Module> = files.iter().map(|f| module_of(f)).collect();
    let layers = layers();
    let mut problems = Vec::new();
    let mut layer_of = BTreeMap::new();
    for file in &files {
        let found: Vec<_> = layers
            .iter()
            .filter(|(_, _, patterns)| patterns.iter().any(|p| matches(p, file)))
            .collect();
        match found.as_slice() {
            [(n, what, _)] => {
                layer_of.insert(file.clone(), (*n, what.clone()));
            }
            [] if file == "lib.rs" || file == "main.rs" => {}
            [] => problems.push(format!(
                "src/{file} is in no layer of docs/architecture.md: add it to the table"
            )),
            _ => problems.push(format!(
                "src/{file} is in {} layers of docs/architecture.md",
                found.len()
            )),
        }
    }
    let mut edges: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for module in &modules {
        let text = std::fs::read_to_string(root().join("src").join(&module.file)).unwrap();
        for import in imports(&text) {
            let Some(path) = absolute(module, &import.path) else {
                continue;
            };
            let Some(to) = target(&modules, &path) else {
                continue;
            };
            let own_part = to.path.len() > module.path.len()
                && to.path[..module.path.len()] == module.path[..];
            if to.file == module.file || (import.reexport && own_part) {
                continue;
            }
            edges
                .entry(module.file.clone())
                .or_default()
                .entry(to.file.clone())
                .or_insert(import.line);
        }
    }
    Graph {
        layer_of,
        edges,
        problems,
    }
}

#[test]
fn every_import_goes_down_the_layers() {
    let graph = graph();
    let mut problems = graph.problems.clone();
    for (from, targets) in &graph.edges {
        let Some((own, own_name)) = graph.layer_of.get(from) else {
            continue;
        };
        for (to, line) in targets {
            let Some((theirs, their_name)) = graph.layer_of.get(to) else {
                continue;
            };
            if theirs > own {
                problems.push(format!(
                    "src/{from}:{line}: imports src/{to}, which is in layer {theirs} ({their_name}), above this file's layer {own} ({own_name})"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn no_imports_go_round_in_a_circle() {
    let graph = graph();
    // Depth-first search; a grey node met again closes a cycle.
    fn visit(
        node: &str,
        graph: &Graph,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
        cycles: &mut BTreeSet<String>,
    ) {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.edges.get(node).into_iter().flat_map(|t| t.keys()) {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                0 => visit(next, graph, state, stack, cycles),
                1 => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    let circle: Vec<String> = stack[from..]
                        .iter()
                        .chain(std::iter::once(next))
                        .collect::<Vec<_>>()
                        .windows(2)
                        .map(|pair| {
                            let line = graph.edges[pair[0].as_str()][pair[1].as_str()];
                            format!("src/{}:{line} → src/{}", pair[0], pair[1])
                        })
                        .collect();
                    cycles.insert(circle.join(", "));
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
    }
    let mut state = BTreeMap::new();
    let mut cycles = BTreeSet::new();
    for node in graph.edges.keys() {
        if !state.contains_key(node) {
            visit(node, &graph, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(
        cycles.is_empty(),
        "import cycles:\n{}\n",
        cycles.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_reader_of_imports_sees_grouped_nested_and_written_out_paths() {
    let text = "use crate::a::{b::{C, D}, e};\nuse super::f as g;\npub use self::h::I;\nfn x() { crate::j::k(); }\n// use crate::no;\n#[cfg(test)]\nuse crate::z;\n";
    let found: Vec<(usize, String)> = imports(text)
        .into_iter()
        .map(|i| (i.line, i.path.join("::")))
        .collect();
    assert_eq!(
        found,
        [
            (1, "crate::a::b::C".to_string()),
            (1, "crate::a::b::D".to_string()),
            (1, "crate::a::e".to_string()),
            (2, "super::f".to_string()),
            (3, "self::h::I".to_string()),
            (4, "crate::j::k".to_string()),
        ]
    );
    let module = module_of("x/y.rs");
    assert_eq!(
        absolute(&module, &["super".into(), "f".into()]),
        Some(vec!["x".to_string(), "f".to_string()])
    );
}
