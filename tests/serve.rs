//! `blades serve` through the real binary: each endpoint answers what the
//! command it stands for prints (`search --ids`, `search --format json`,
//! `card show`, `deck check --format json`, `deck export`), and bad requests
//! get a 4xx with a JSON message while the server goes on answering.
//!
//! The client is a few lines over `TcpStream`: one request per connection.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use serde_json::value::RawValue;

const RULES_POOL: &str = "tests/fixtures/rules/pool";

/// A running `blades serve`, killed when dropped (a failed test too).
struct Served {
    child: Child,
    port: u16,
    /// What it printed on stderr so far.
    stderr: Arc<Mutex<String>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `blades serve --port 0 ARGS…` in `dir` and reads the port from
/// its first line.
fn serve_in(dir: &Path, args: &[&str]) -> Served {
    serve_in_env(dir, args, &[])
}

/// [`serve_in`] with more variables in its environment.
fn serve_in_env(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(["serve", "--port", "0"])
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the blades binary runs");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut errors = child.stderr.take().expect("stderr is piped");
    let stderr = Arc::new(Mutex::new(String::new()));
    let said = stderr.clone();
    // Read as it comes, so that the pipe never fills.
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = errors.read(&mut buffer) {
            if let Ok(mut text) = said.lock() {
                text.push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        }
    });
    let mut served = Served {
        child,
        port: 0,
        stderr,
    };
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server prints a line");
    if line.is_empty() {
        let _ = served.child.wait();
        panic!("the server stopped before it listened:\n{}", served.said());
    }
    served.port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .or_else(|| line.trim().strip_prefix("listening on http://0.0.0.0:"))
        .and_then(|port| port.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("not the listening line: {line:?}"));
    served
}

/// A temporary folder without a `cards` folder: the built-in pool.
fn outside() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// One answer: status, headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("the body is UTF-8")
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    fn header(&self, name: &str) -> Option<&str> {
        (self.headers.iter())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Served {
    /// What the server printed on stderr, once it printed something (or
    /// after a second).
    fn said(&self) -> String {
        for _ in 0..20 {
            let text = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
            if !text.is_empty() {
                return text;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        String::new()
    }

    /// Sends one request as raw bytes and reads the whole answer.
    fn raw(&self, request: &[u8]) -> Answer {
        parse_answer(&self.raw_bytes(request))
    }

    /// Sends raw bytes and reads what comes back (nothing, when the
    /// server hangs up on something that is no request).
    fn raw_bytes(&self, request: &[u8]) -> Vec<u8> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a timeout");
        stream.write_all(request).expect("the request is sent");
        // Nothing more will come: a body shorter than announced ends here.
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).expect("the answer is read");
        bytes
    }

    fn request(&self, method: &str, target: &str, body: &[u8]) -> Answer {
        let mut request = format!(
            "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            self.port,
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.raw(&request)
    }

    fn get(&self, target: &str) -> Answer {
        self.request("GET", target, b"")
    }

    /// It still answers, after whatever came before.
    fn still_answers(&self) {
        let answer = self.get("/api/formats");
        assert_eq!(answer.status, 200, "{}", answer.text());
    }
}

fn parse_answer(bytes: &[u8]) -> Answer {
    let split = (bytes.windows(4))
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers: {}", String::from_utf8_lossy(bytes)));
    let head = String::from_utf8_lossy(&bytes[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = (lines.next().and_then(|l| l.split(' ').nth(1)))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = bytes[split + 4..].to_vec();
    if (headers.iter()).any(|(n, v)| n == "transfer-encoding" && v.contains("chunked")) {
        body = dechunked(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunked(mut bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = (bytes.windows(2))
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&bytes[..end]).unwrap().trim(), 16)
            .expect("a hex chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&bytes[end + 2..end + 2 + size]);
        bytes = &bytes[end + 2 + size + 2..];
    }
}

/// A query string's value, percent-encoded.
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The ids `blades search --ids QUERY` prints, run in `dir`.
fn cli_ids(dir: &Path, pool: &[&str], query: &str) -> Vec<String> {
    let mut args: Vec<&str> = pool.to_vec();
    args.extend(["search", "--ids", "--", query]);
    let run = common::blades(dir, &args);
    assert_eq!(run.code, 0, "{query}: {}", run.stderr);
    run.stdout.lines().map(str::to_string).collect()
}

/// The search's first answer (`limit` omitted: the server's page).
fn api_search(served: &Served, query: &str, lang: &str) -> Value {
    let answer = served.get(&format!("/api/search?q={}&lang={lang}", encoded(query)));
    assert_eq!(answer.status, 200, "{query}: {}", answer.text());
    answer.json()
}

/// The rows' ids of a search's answer.
fn row_ids(json: &Value) -> Vec<String> {
    (json["cards"].as_array().expect("cards"))
        .iter()
        .map(|c| c["id"].as_str().expect("an id").to_string())
        .collect()
}

/// Every id a search finds, read a page of [`SMALL_PAGE`] rows at a time
/// as the list reads them when it scrolls, and its first answer.
fn api_ids(served: &Served, query: &str, lang: &str) -> (Vec<String>, Value) {
    let mut ids = Vec::new();
    let mut first = None;
    loop {
        let from = ids.len();
        let answer = served.get(&format!(
            "/api/search?q={}&lang={lang}&from={from}&limit={SMALL_PAGE}",
            encoded(query)
        ));
        assert_eq!(answer.status, 200, "{query}: {}", answer.text());
        let json = answer.json();
        assert_eq!(json["from"], from, "{query}");
        let page = row_ids(&json);
        assert!(page.len() <= SMALL_PAGE, "{query}");
        let count = json["count"].as_u64().expect("a count") as usize;
        ids.extend(page.iter().cloned());
        let json = first.get_or_insert(json);
        assert_eq!(
            json["count"], count,
            "{query}: the same count on every page"
        );
        if page.is_empty() || ids.len() >= count {
            return (ids, first.unwrap_or_default());
        }
    }
}

/// A page smaller than most answers of the built-in pool: paging is tested.
const SMALL_PAGE: usize = 7;

const BUILTIN_QUERIES: &[&str] = &[
    "",
    "e:fire",
    "t:construct star>=3",
    "(kw:scurry or kw:\"blast off\") -is:vanilla",
    "-is:vanilla e:fire",
    "属性:炎",
    "wyrm",
    "kind:single",
    "star<=2 or r:master",
];

#[test]
fn search_answers_the_ids_and_the_explanation_the_command_prints() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    for query in BUILTIN_QUERIES {
        let expected = cli_ids(dir.path(), &[], query);
        for lang in ["en", "ja"] {
            let (ids, json) = api_ids(&served, query, lang);
            assert_eq!(ids, expected, "{query} ({lang})");
            assert_eq!(json["count"], expected.len(), "{query}");
        }
        // The explanation is `--explain`'s, in each language.
        let run = common::blades(dir.path(), &["--format", "json", "search", "--", query]);
        let report: Value = serde_json::from_str(&run.stdout).expect("the search report");
        for lang in ["en", "ja"] {
            let (_, json) = api_ids(&served, query, lang);
            assert_eq!(json["explain"], report["explain"][lang], "{query} ({lang})");
        }
    }
    assert!(BUILTIN_QUERIES.len() > 5);
    served.still_answers();
}

#[test]
fn a_search_answers_its_count_and_a_page_of_rows() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let every = cli_ids(dir.path(), &[], "");
    assert!(every.len() > 2 * SMALL_PAGE, "a pool of several pages");
    // The server's page, without `limit`: the first rows.
    let json = api_search(&served, "", "en");
    assert_eq!(json["count"], every.len());
    assert_eq!(json["from"], 0);
    let page = row_ids(&json);
    assert_eq!(page, every[..page.len().min(every.len())]);
    // Any window, past the end too: the rows there, the count of all.
    for (from, limit) in [(3, 5), (every.len() - 2, 10), (every.len() + 4, 10), (0, 0)] {
        let answer = served.get(&format!("/api/search?q=&from={from}&limit={limit}"));
        let json = answer.json();
        assert_eq!(json["count"], every.len(), "{from} {limit}");
        let end = (from + limit).min(every.len());
        let expected = every.get(from..end).unwrap_or_default();
        assert_eq!(row_ids(&json), expected, "{from} {limit}");
    }
}

/// The rules fixtures' pool under `root`, as an argument.
fn rules_pool(root: &Path) -> String {
    let pool = root.join(RULES_POOL);
    pool.to_str().expect("a UTF-8 path").to_string()
}

/// The server on the rules fixtures' pool, started in `root`.
fn serve_rules_pool(root: &Path) -> Served {
    serve_in(root, &["--cards", &rules_pool(root)])
}

#[test]
fn search_on_a_fixture_pool_answers_its_cards() {
    let root = common::root();
    let pool = rules_pool(root);
    let served = serve_rules_pool(root);
    let mut nonempty = 0;
    for query in [
        "",
        "e:fire",
        "kind:deck-box or kind:accessory",
        "star>=4",
        "gulch",
    ] {
        let expected = cli_ids(root, &["--cards", &pool], query);
        let (ids, _) = api_ids(&served, query, "en");
        assert_eq!(ids, expected, "{query}");
        nonempty += usize::from(!ids.is_empty());
    }
    assert!(nonempty >= 3, "the queries find cards");
}

#[test]
fn the_table_rows_are_the_commands_table_in_each_language() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    for lang in ["en", "ja"] {
        let json = api_search(&served, "e:fire", lang);
        let run = common::blades(dir.path(), &["--quiet", "search", "--lang", lang, "e:fire"]);
        // The command's table, cell by cell (its columns are two spaces
        // apart; no cell of this query holds two spaces).
        let lines: Vec<&str> = run.stdout.lines().collect();
        let head: Vec<&str> = json["head"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let words = |line: &str| -> Vec<String> {
            line.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        };
        assert_eq!(words(lines[0]), head, "{lang}");
        for (row, line) in json["cards"].as_array().unwrap().iter().zip(&lines[1..]) {
            let cells: Vec<String> = (row["cells"].as_array().unwrap().iter())
                .map(|v| v.as_str().unwrap().to_string())
                .filter(|c| !c.is_empty())
                .collect();
            assert_eq!(words(line), cells, "{lang}");
        }
    }
}

#[test]
fn a_card_is_what_card_show_says_with_its_face() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let (ids, _) = api_ids(&served, "", "en");
    for id in ids.iter().step_by(7) {
        let answer = served.get(&format!("/api/card/{}?lang=ja", encoded(id)));
        assert_eq!(answer.status, 200, "{id}: {}", answer.text());
        let json = answer.json();
        let run = common::blades(dir.path(), &["--format", "json", "card", "show", id]);
        let shown: Value = serde_json::from_str(&run.stdout).expect("card show's JSON");
        assert_eq!(json["card"], shown["card"], "{id}");
        assert_eq!(json["set"], shown["set"], "{id}");
        let human = common::blades(dir.path(), &["--quiet", "card", "show", id]);
        assert_eq!(
            json["summary"].as_str(),
            Some(human.stdout.as_str()),
            "{id}"
        );
        let face = json["face"].as_str().expect("a face");
        assert!(face.starts_with("<svg"), "{id}");
        assert!(face.contains(&format!("data-card=\"{id}\"")), "{id}");
        assert!(face.contains("data-lang=\"ja\""), "{id}");
        assert!(
            face.contains("url('/assets/fonts/"),
            "the face's fonts are the app's"
        );
    }
    let missing = served.get("/api/card/no-such-card");
    assert_eq!(missing.status, 404);
    assert!(
        missing.json()["error"]
            .as_str()
            .unwrap()
            .contains("no-such-card")
    );
}

/// The deck files beside the rules pool, as the command names them.
fn deck_fixtures() -> Vec<String> {
    let dir = common::root().join("tests/fixtures/rules/deck");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the deck fixtures")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            format!(
                "tests/fixtures/rules/deck/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    files.sort();
    files
}

/// The deck check's answer for `text` under `name`, its report as raw
/// bytes.
fn api_deck(served: &Served, text: &[u8], query: &str) -> (Answer, String) {
    let answer = served.request("POST", &format!("/api/deck/check?{query}"), text);
    assert_eq!(answer.status, 200, "{query}: {}", answer.text());
    #[derive(serde::Deserialize)]
    struct Raw<'a> {
        #[serde(borrow)]
        report: &'a RawValue,
    }
    let body = answer.text();
    let report = serde_json::from_str::<Raw>(&body)
        .expect("a report")
        .report
        .get()
        .to_string();
    (answer, report)
}

#[test]
fn the_deck_check_is_the_commands_report_byte_for_byte() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let files = deck_fixtures();
    assert!(files.len() >= 10, "{files:?}");
    let mut verdicts = std::collections::BTreeSet::new();
    for file in &files {
        let text = std::fs::read(root.join(file)).expect("the fixture");
        let run = common::blades(
            root,
            &[
                "--cards", RULES_POOL, "--format", "json", "deck", "check", file,
            ],
        );
        let (answer, report) = api_deck(&served, &text, &format!("name={}", encoded(file)));
        assert_eq!(report, run.stdout.trim_end(), "{file}");
        verdicts.insert(run.code);
        // The list and share code are `deck export`'s, when it exports.
        let export = common::blades(
            root,
            &[
                "--cards", RULES_POOL, "--format", "json", "deck", "export", file,
            ],
        );
        let json = answer.json();
        match export.code {
            0 => {
                let exported = export.json();
                assert_eq!(json["list"], exported["list"], "{file}");
                assert_eq!(json["share-code"], exported["share-code"], "{file}");
            }
            _ => assert!(
                json["list"].is_null() && json["share-code"].is_null(),
                "{file}"
            ),
        }
    }
    // Legal, illegal and unreadable decks were all compared.
    assert_eq!(verdicts.into_iter().collect::<Vec<_>>(), [0, 1, 2]);
}

#[test]
fn a_share_code_and_other_formats_check_as_on_the_command_line() {
    let root = common::root();
    let served = serve_in(root, &[]);
    // A deck of the built-in pool, as its share code.
    let export = common::blades(
        root,
        &[
            "--cards",
            "cards",
            "deck",
            "export",
            "--share",
            "examples/inputs/deck.yaml",
        ],
    );
    assert_eq!(export.code, 0, "{}", export.stderr);
    let code = export.stdout.trim();
    let run = common::blades(
        root,
        &[
            "--cards", "cards", "--format", "json", "deck", "check", code,
        ],
    );
    let (answer, report) = api_deck(&served, code.as_bytes(), "");
    assert_eq!(report, run.stdout.trim_end());
    assert_eq!(answer.json()["share-code"].as_str(), Some(code));
    // Other formats, each on the example pool it is written for.
    for (pool, rules, files) in [
        (
            "examples/pools/millennium-monsters",
            "millennium-deck",
            &[
                "md-legal.txt",
                "md-over.yaml",
                "md-short.txt",
                "md-wrong-zones.txt",
                "md-unknown-zone.txt",
                "md-legal-headers.txt",
            ][..],
        ),
        (
            "examples/pools/playing-cards",
            "starting-hand",
            &["hand-legal.txt", "hand-jokers.txt", "hand-faces.txt"][..],
        ),
        (
            "examples/pools/board-game",
            "holdings",
            &["holdings-legal.txt", "holdings-over.yaml"][..],
        ),
    ] {
        let other = serve_in(root, &["--cards", pool]);
        for file in files {
            let file = format!("tests/fixtures/formats/{file}");
            let text = std::fs::read(root.join(&file)).expect("the fixture");
            let run = common::blades(
                root,
                &[
                    "--cards", pool, "--format", "json", "deck", "check", "--rules", rules, &file,
                ],
            );
            let query = format!("rules={rules}&name={}", encoded(&file));
            let (answer, report) = api_deck(&other, &text, &query);
            assert_eq!(report, run.stdout.trim_end(), "{file}");
            // Each bound counted, when the deck was read.
            let json = answer.json();
            assert!(
                json["report"]["checked"] == false
                    || json["slots"].as_array().is_some_and(|s| !s.is_empty()),
                "{file}"
            );
        }
    }
    let unknown = served.request("POST", "/api/deck/check?rules=no-such-format", b"");
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.json()["error"]
            .as_str()
            .unwrap()
            .contains("tournament")
    );
}

/// `POST /api/deck/diff` for two fixture decks under their file names.
fn api_diff(served: &Served, root: &Path, a: &str, b: &str, rules: &str) -> Answer {
    let text = |file: &str| std::fs::read_to_string(root.join(file)).expect("the fixture");
    let body = serde_json::json!({ "a": text(a), "b": text(b) }).to_string();
    let query = format!("rules={rules}&a={}&b={}", encoded(a), encoded(b));
    served.request("POST", &format!("/api/deck/diff?{query}"), body.as_bytes())
}

#[test]
fn a_deck_diff_is_what_the_command_prints() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let deck = |name: &str| format!("tests/fixtures/rules/deck/{name}");
    let pairs = [
        (deck("legal.yaml"), deck("legal-reordered.txt"), 0),
        (deck("legal.yaml"), deck("legal-v2.txt"), 1),
        (deck("legal-v2.txt"), deck("duplicate.yaml"), 1),
        (deck("legal.yaml"), deck("unknown-cards.yaml"), 2),
        (deck("malformed.yaml"), deck("legal.yaml"), 2),
    ];
    for (a, b, code) in &pairs {
        let run = common::blades(
            root,
            &[
                "--cards", RULES_POOL, "--format", "json", "deck", "diff", a, b,
            ],
        );
        assert_eq!(run.code, *code, "{a} {b}: {}", run.stderr);
        let answer = api_diff(&served, root, a, b, "");
        match code {
            2 => {
                assert_eq!(answer.status, 400, "{a} {b}: {}", answer.text());
                // The same findings, located in the same texts.
                assert_eq!(answer.json()["report"], run.json(), "{a} {b}");
            }
            _ => {
                assert_eq!(answer.status, 200, "{a} {b}: {}", answer.text());
                assert_eq!(answer.json()["diff"], run.json(), "{a} {b}");
                assert_eq!(answer.json()["diff"]["same"], *code == 0);
            }
        }
    }
    // Zones of another format are compared as the command compares them.
    let pool = "examples/pools/millennium-monsters";
    let served = serve_in(root, &["--cards", pool]);
    let (a, b) = (
        "tests/fixtures/formats/md-legal.txt",
        "tests/fixtures/formats/md-over.yaml",
    );
    let args = [
        "--cards",
        pool,
        "--format",
        "json",
        "deck",
        "diff",
        "--rules",
        "millennium-deck",
        a,
        b,
    ];
    let run = common::blades(root, &args);
    let answer = api_diff(&served, root, a, b, "millennium-deck");
    assert_eq!(answer.json()["diff"], run.json());
    assert_eq!(answer.json()["diff"]["zones"][0]["zone"], "main-deck");
}

#[test]
fn deck_stats_are_what_the_command_prints() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let mut codes = std::collections::BTreeSet::new();
    for file in deck_fixtures() {
        let text = std::fs::read(root.join(&file)).expect("the fixture");
        let run = common::blades(
            root,
            &[
                "--cards", RULES_POOL, "--format", "json", "deck", "stats", &file,
            ],
        );
        codes.insert(run.code);
        let query = format!("/api/deck/stats?lang=ja&name={}", encoded(&file));
        let answer = served.request("POST", &query, &text);
        match run.code {
            0 => {
                assert_eq!(answer.status, 200, "{file}: {}", answer.text());
                let json = answer.json();
                assert_eq!(json["stats"], run.json(), "{file}");
                // Every value named has its word, the glossary's in Japanese.
                let words = json["words"].as_object().expect("words");
                for spread in ["kinds", "elements", "types"] {
                    for value in json["stats"][spread].as_array().expect("a spread") {
                        let value = value["value"].as_str().expect("a value");
                        assert!(words.contains_key(value), "{file}: {value}");
                    }
                }
            }
            _ => {
                assert_eq!(answer.status, 400, "{file}: {}", answer.text());
                assert_eq!(answer.json()["report"], run.json(), "{file}");
            }
        }
    }
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), [0, 2]);
    let answer = served.request(
        "POST",
        "/api/deck/stats?lang=ja",
        b"1 Dust Devil\n1 Iron Case\n",
    );
    let words = &answer.json()["words"];
    assert_eq!(words["single"], "シングル");
    assert_eq!(words["deck-box"], "デッキケース");
    assert_eq!(words["fire"], "炎");
    for (target, status) in [
        ("/api/deck/stats?lang=xx", 400),
        ("/api/deck/stats?rules=nope", 400),
    ] {
        assert_eq!(
            served.request("POST", target, b"cards: []").status,
            status,
            "{target}"
        );
    }
    assert_eq!(served.get("/api/deck/stats").status, 405);
    served.still_answers();
}

#[test]
fn what_is_missing_is_the_deck_less_what_is_owned() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let deck_file = "tests/fixtures/rules/deck/legal-v2.txt";
    // The deck's cards, repeats included, as `deck check` reads them.
    let run = common::blades(
        root,
        &[
            "--cards", RULES_POOL, "--format", "json", "deck", "check", deck_file,
        ],
    );
    let mut need: std::collections::BTreeMap<String, u64> = Default::default();
    for id in run.json()["cards"].as_array().expect("the deck's cards") {
        *need
            .entry(id.as_str().expect("an id").to_string())
            .or_default() += 1;
    }
    let owned: [(&str, u64); 3] = [("gear-sleeve", 1), ("canyon-wyrm", 1), ("moon-hare", 3)];
    let binder = owned
        .iter()
        .map(|(id, n)| format!("{n} {id}\n"))
        .collect::<String>();
    let copies = format!(
        "sets: [sunset-gulch]\ncards: {{{}}}\n",
        owned
            .iter()
            .map(|(id, n)| format!("{id}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut expected = std::collections::BTreeMap::new();
    for (id, n) in &need {
        let own = owned.iter().find(|(o, _)| o == id).map_or(0, |(_, n)| *n);
        if *n > own {
            expected.insert(id.clone(), n - own);
        }
    }
    let deck = std::fs::read_to_string(root.join(deck_file)).expect("the deck");
    for (kind, text) in [("binder", &binder), ("copies", &copies)] {
        let body = serde_json::json!({ "a": deck, "b": text }).to_string();
        let answer = served.request(
            "POST",
            &format!("/api/deck/missing?owned={kind}"),
            body.as_bytes(),
        );
        assert_eq!(answer.status, 200, "{kind}: {}", answer.text());
        let json = &answer.json()["missing"];
        let found: std::collections::BTreeMap<String, u64> =
            (json["cards"].as_array().expect("cards"))
                .iter()
                .map(|c| {
                    (
                        c["id"].as_str().unwrap_or("").to_string(),
                        c["missing"].as_u64().unwrap_or(0),
                    )
                })
                .collect();
        assert_eq!(found, expected, "{kind}");
        assert_eq!(json["missing"], expected.values().sum::<u64>(), "{kind}");
    }
    let body = serde_json::json!({ "a": deck, "b": "1 Canyon Wyrn\n" }).to_string();
    let answer = served.request("POST", "/api/deck/missing", body.as_bytes());
    assert_eq!(answer.status, 400, "{}", answer.text());
    assert_eq!(
        answer.json()["report"]["diagnostics"][0]["code"],
        "unknown-card"
    );
    let answer = served.request(
        "POST",
        "/api/deck/missing?owned=box",
        br#"{"a": "", "b": ""}"#,
    );
    assert_eq!(answer.status, 400);
    assert_eq!(served.get("/api/deck/missing").status, 405);
    served.still_answers();
}

#[test]
fn what_is_missing_is_what_deck_missing_prints() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let cases = [
        ("deck/legal-v2.txt", "binder/binder.txt", false),
        ("deck/legal.yaml", "copies/ok.yaml", true),
        ("deck/legal.yaml", "deck/legal-reordered.txt", false),
        ("deck/legal.yaml", "deck/unknown-cards.yaml", false),
        ("deck/legal.yaml", "copies/ok.yaml", false),
    ];
    let mut codes = std::collections::BTreeSet::new();
    for (deck, owned, copies) in cases {
        let (deck, owned) = (
            format!("tests/fixtures/rules/{deck}"),
            format!("tests/fixtures/rules/{owned}"),
        );
        let mut args = vec![
            "--cards", RULES_POOL, "--format", "json", "deck", "missing", &deck, &owned,
        ];
        if copies {
            args.push("--copies");
        }
        let run = common::blades(root, &args);
        codes.insert(run.code);
        let text = |file: &str| std::fs::read_to_string(root.join(file)).expect("the fixture");
        let body = serde_json::json!({ "a": text(&deck), "b": text(&owned) }).to_string();
        let query = format!(
            "/api/deck/missing?lang=ja&owned={}&a={}&b={}",
            if copies { "copies" } else { "binder" },
            encoded(&deck),
            encoded(&owned)
        );
        let answer = served.request("POST", &query, body.as_bytes());
        let case = format!("{deck} {owned} (copies: {copies})");
        match run.code {
            2 => {
                assert_eq!(answer.status, 400, "{case}: {}", answer.text());
                assert_eq!(answer.json()["report"], run.json(), "{case}");
            }
            _ => {
                assert_eq!(answer.status, 200, "{case}: {}", answer.text());
                let json = answer.json();
                assert_eq!(json["missing"], run.json(), "{case}");
                assert_eq!(json["missing"]["missing"] == 0, run.code == 0, "{case}");
                // Every card listed has its name in the language asked.
                for card in run.json()["cards"].as_array().expect("cards") {
                    let id = card["id"].as_str().expect("an id");
                    assert!(json["names"][id].is_string(), "{case}: {id}");
                }
            }
        }
    }
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), [0, 1, 2]);
}

/// The sheet `blades print --deck DECK` writes on `pool` in `dir`, read
/// back.
fn printed_sheet(dir: &Path, pool: &[&str], deck: &str, extra: &[&str]) -> String {
    let out = tempfile::tempdir().expect("a temporary folder");
    let folder = out.path().join("print");
    let folder = folder.to_str().expect("a UTF-8 path");
    let mut args = pool.to_vec();
    args.extend(["print", "--deck", deck, "--out", folder]);
    args.extend(extra);
    let run = common::blades(dir, &args);
    assert_eq!(run.code, 0, "{deck}: {}", run.stderr);
    let lang = extra
        .windows(2)
        .find(|w| w[0] == "--lang")
        .map_or("en", |w| w[1]);
    let paper = extra
        .windows(2)
        .find(|w| w[0] == "--paper")
        .map_or("a4", |w| w[1]);
    std::fs::read_to_string(out.path().join(format!("print/deck.{paper}.{lang}.html")))
        .expect("the deck's sheet")
}

#[test]
fn a_decks_sheet_is_what_print_deck_writes() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let card = regex::Regex::new(r#"<div class="card" data-card="([^"]+)""#).expect("a regex");
    for (deck, extra) in [
        ("tests/fixtures/rules/deck/legal-v2.txt", &[][..]),
        (
            "tests/fixtures/rules/deck/legal.yaml",
            &["--paper", "letter"][..],
        ),
    ] {
        let file = printed_sheet(root, &["--cards", RULES_POOL], deck, extra);
        let text = std::fs::read_to_string(root.join(deck)).expect("the fixture");
        let mut query = format!(
            "/api/deck/sheet?deck={}&name={}",
            encoded(&text),
            encoded(deck)
        );
        for pair in extra.chunks(2) {
            query.push_str(&format!("&{}={}", pair[0].trim_start_matches('-'), pair[1]));
        }
        let answer = served.get(&query);
        assert_eq!(answer.status, 200, "{deck}: {}", answer.text());
        assert_eq!(
            answer.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        assert!(
            answer.text() == file,
            "{deck}: the served sheet is not the file"
        );
        // Every card of the deck, as many times as it holds it, in its order.
        let run = common::blades(
            root,
            &[
                "--cards", RULES_POOL, "--format", "json", "deck", "check", deck,
            ],
        );
        let cards: Vec<String> = (run.json()["cards"].as_array().expect("cards"))
            .iter()
            .map(|id| id.as_str().expect("an id").to_string())
            .collect();
        let printed: Vec<String> = card
            .captures_iter(&file)
            .map(|c| c[1].to_string())
            .collect();
        assert_eq!(printed, cards, "{deck}");
    }
    // A share code: the same sheet as the command's for the same code.
    let run = common::blades(
        root,
        &[
            "--cards",
            RULES_POOL,
            "deck",
            "export",
            "--share",
            "tests/fixtures/rules/deck/legal.yaml",
        ],
    );
    let code = run.stdout.trim();
    let file = printed_sheet(root, &["--cards", RULES_POOL], code, &[]);
    let answer = served.get(&format!("/api/deck/sheet?deck={}", encoded(code)));
    assert!(answer.text() == file, "the sheet of a share code");
    // A pool with no Japanese prints the Japanese page's sheet in English.
    let answer = served.get(&format!("/api/deck/sheet?deck={}&lang=ja", encoded(code)));
    assert!(answer.text() == file, "a sheet in the pool's English");
    // Its stylesheet link finds the app's fonts.
    assert!(file.contains(r#"<link rel="stylesheet" href="fonts.css">"#));
    let fonts = served.get("/api/deck/fonts.css");
    assert_eq!(fonts.status, 200);
    assert!(fonts.text().contains("url('/assets/fonts/"));
    for (target, status) in [
        ("/api/deck/sheet?deck=1%20Canyon%20Wyrn", 400),
        ("/api/deck/sheet?deck=", 400),
        ("/api/deck/sheet?deck=Dust%20Devil&paper=a3", 400),
        ("/api/deck/sheet?deck=Dust%20Devil&lang=fr", 400),
        ("/api/deck/sheet?deck=Dust%20Devil&rules=nope", 400),
    ] {
        assert_eq!(served.get(target).status, status, "{target}");
    }
    let unknown = served.get("/api/deck/sheet?deck=1%20Canyon%20Wyrn");
    assert_eq!(
        unknown.json()["report"]["diagnostics"][0]["code"],
        "unknown-card"
    );
    assert_eq!(
        served
            .request("POST", "/api/deck/sheet", b"Dust Devil")
            .status,
        405
    );
    served.still_answers();
}

#[test]
fn a_japanese_decks_sheet_has_japanese_faces() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let deck = "2 Rivet Gremlin\nBoiler Golem\n";
    std::fs::write(dir.path().join("deck.txt"), deck).expect("the deck is written");
    let file = printed_sheet(dir.path(), &[], "deck.txt", &["--lang", "ja"]);
    let answer = served.get(&format!(
        "/api/deck/sheet?deck={}&name=deck.txt&lang=ja",
        encoded(deck)
    ));
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(answer.text() == file, "the served sheet is not the file");
    assert_eq!(file.matches(r#"<div class="card" "#).count(), 3);
    assert!(file.contains(r#"<body data-set="deck" data-paper="a4" data-lang="ja">"#));
    assert_eq!(
        file.matches(r#"data-lang="ja""#).count(),
        4,
        "three faces in Japanese"
    );
}

/// Opens a connection and sends `bytes`, leaving it open.
fn stalled(served: &Served, bytes: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", served.port)).expect("the server accepts");
    stream.write_all(bytes).expect("the start is sent");
    stream
}

/// Everything the server writes on `stream` until it closes it.
fn answer_on(mut stream: TcpStream) -> Vec<u8> {
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    bytes
}

#[test]
fn clients_that_stall_hold_no_worker_and_are_told_when_their_time_is_up() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let began = std::time::Instant::now();
    // More stalled clients than the server has workers: bodies announced
    // and never sent, heads begun and never finished, and a connection
    // that never says a word.
    let body = format!(
        "POST /api/deck/check HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 5000\r\n\r\n1 Rivet",
        served.port
    );
    let bodies: Vec<TcpStream> = (0..5).map(|_| stalled(&served, body.as_bytes())).collect();
    let heads: Vec<TcpStream> = (0..5)
        .map(|_| stalled(&served, b"GET /api/formats HTTP/1.1\r\nHost: 127.0"))
        .collect();
    let silent = stalled(&served, b"");
    std::thread::sleep(Duration::from_millis(200));
    // Answered at once, while every stalled client waits.
    served.still_answers();
    let deck = served.request("POST", "/api/deck/check", b"1 Rivet Gremlin\n");
    assert_eq!(deck.status, 200, "{}", deck.text());
    assert!(
        began.elapsed() < blades::serve::HEAD_WAIT,
        "{:?}",
        began.elapsed()
    );
    // Each stalled client is told, once its time is up, why it got no answer.
    for (stream, says) in
        (bodies.into_iter().map(|s| (s, "body"))).chain(heads.into_iter().map(|s| (s, "head")))
    {
        let answer = parse_answer(&answer_on(stream));
        assert_eq!(answer.status, 408, "{}", answer.text());
        assert!(answer.json()["error"].as_str().unwrap().contains(says));
    }
    assert!(began.elapsed() >= blades::serve::BODY_WAIT);
    // The one that never spoke is closed without a word.
    assert_eq!(answer_on(silent), b"");
    served.still_answers();
}

#[test]
fn connections_past_the_bound_are_told_to_try_again() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let held: Vec<TcpStream> = (0..blades::serve::CONNECTIONS)
        .map(|_| stalled(&served, b"GET / HTTP/1.1\r\n"))
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let busy = served.get("/api/formats");
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert!(busy.json()["error"].as_str().unwrap().contains("try again"));
    drop(held);
    // Their threads see them gone and give their places back.
    std::thread::sleep(Duration::from_millis(200));
    served.still_answers();
}

#[test]
fn a_deck_diff_refuses_what_is_not_two_decks() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let cases: [(&str, &str, &[u8], u16, &str); 6] = [
        ("GET", "/api/deck/diff", b"", 405, "POST"),
        ("POST", "/api/deck/diff", b"1 Canyon Wyrm", 400, "JSON"),
        ("POST", "/api/deck/diff", br#"{"a": "x"}"#, 400, "`b`"),
        (
            "POST",
            "/api/deck/diff",
            br#"{"a": 1, "b": ""}"#,
            400,
            "JSON",
        ),
        (
            "POST",
            "/api/deck/diff?a=x&b=x",
            br#"{"a": "", "b": ""}"#,
            400,
            "two names",
        ),
        (
            "POST",
            "/api/deck/diff?rules=nope",
            br#"{"a": "", "b": ""}"#,
            400,
            "nope",
        ),
    ];
    for (method, target, body, status, said) in cases {
        let answer = served.request(method, target, body);
        assert_eq!(answer.status, status, "{target}: {}", answer.text());
        let error = answer.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(error.contains(said), "{target}: {error}");
    }
    let big = serde_json::json!({ "a": "x".repeat(70_000), "b": "" }).to_string();
    let answer = served.request("POST", "/api/deck/diff", big.as_bytes());
    assert_eq!(answer.status, 413);
    // Two empty decks are the same deck; an empty text is no deck.
    let answer = served.request("POST", "/api/deck/diff", br#"{"a": "", "b": ""}"#);
    assert_eq!(answer.status, 400, "{}", answer.text());
    let empty = br#"{"a": "cards: []", "b": "cards: []"}"#;
    let answer = served.request("POST", "/api/deck/diff", empty);
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.json()["diff"]["same"], true);
    served.still_answers();
}

/// The files in a fixture folder, as the commands name them.
fn fixtures_in(folder: &str) -> Vec<String> {
    let dir = common::root().join(folder);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the fixtures")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .map(|p| format!("{folder}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    files
}

/// The report of a player check's answer, as raw bytes.
fn report_of(answer: &Answer) -> String {
    #[derive(serde::Deserialize)]
    struct Raw<'a> {
        #[serde(borrow)]
        report: &'a RawValue,
    }
    let body = answer.text();
    let raw: Raw = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    raw.report.get().to_string()
}

#[test]
fn the_table_checks_are_the_commands_reports_byte_for_byte() {
    let root = common::root();
    let served = serve_in(root, &["--cards", RULES_POOL]);
    let checks: [(&str, &[&str], &str, &str); 5] = [
        (
            "tests/fixtures/rules/collection",
            &["collection", "check"],
            "collection/check",
            "",
        ),
        (
            "tests/fixtures/rules/collection",
            &["collection", "check", "--duel"],
            "collection/check",
            "duel=true",
        ),
        (
            "tests/fixtures/rules/binder",
            &["collection", "best"],
            "collection/best",
            "",
        ),
        (
            "tests/fixtures/rules/binder",
            &["collection", "best", "--duel"],
            "collection/best",
            "duel=true",
        ),
        (
            "tests/fixtures/rules/trade",
            &["trade", "check"],
            "trade/check",
            "",
        ),
    ];
    let mut codes = std::collections::BTreeSet::new();
    for (folder, command, path, flags) in checks {
        for file in fixtures_in(folder) {
            let mut args = vec!["--cards", RULES_POOL, "--format", "json"];
            args.extend_from_slice(command);
            args.push(&file);
            let run = common::blades(root, &args);
            codes.insert(run.code);
            let text = std::fs::read(root.join(&file)).expect("the fixture");
            let target = format!("/api/{path}?{flags}&name={}", encoded(&file));
            let answer = served.request("POST", &target, &text);
            assert_eq!(answer.status, 200, "{file}: {}", answer.text());
            assert_eq!(
                report_of(&answer),
                run.stdout.trim_end(),
                "{path} {flags} {file}"
            );
            // The cards it names have their rows.
            let json = answer.json();
            for id in json["report"]["cards"].as_array().into_iter().flatten() {
                let id = id.as_str().expect("an id");
                assert!(json["cards"][id]["cells"].is_array(), "{file}: {id}");
            }
        }
    }
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), [0, 1, 2]);
    let free = std::fs::read(root.join("tests/fixtures/rules/trade/uneven.yaml")).expect("a trade");
    let run = common::blades(
        root,
        &[
            "--cards",
            RULES_POOL,
            "--format",
            "json",
            "trade",
            "check",
            "--free-market",
            "tests/fixtures/rules/trade/uneven.yaml",
        ],
    );
    let target = "/api/trade/check?free-market=true&name=tests/fixtures/rules/trade/uneven.yaml";
    let answer = served.request("POST", target, &free);
    assert_eq!(report_of(&answer), run.stdout.trim_end());
    for target in [
        "/api/collection/check?duel=maybe",
        "/api/trade/check?free-market=x",
        "/api/collection/best?lang=xx",
    ] {
        assert_eq!(
            served.request("POST", target, b"cards: []").status,
            400,
            "{target}"
        );
    }
    for path in [
        "collection/check",
        "collection/best",
        "trade/check",
        "score",
    ] {
        assert_eq!(served.get(&format!("/api/{path}")).status, 405, "{path}");
    }
    served.still_answers();
}

#[test]
fn a_score_sheet_ranks_as_blades_score_byte_for_byte() {
    let root = common::root();
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let mut sheets = vec!["examples/inputs/score.yaml".to_string()];
    sheets.extend(fixtures_in("tests/fixtures/rules/score"));
    let mut codes = std::collections::BTreeSet::new();
    for sheet in &sheets {
        let run = common::blades(root, &["--format", "json", "score", sheet]);
        codes.insert(run.code);
        let text = std::fs::read(root.join(sheet)).expect("the sheet");
        let answer = served.request(
            "POST",
            &format!("/api/score?name={}", encoded(sheet)),
            &text,
        );
        match run.code {
            0 => {
                assert_eq!(answer.status, 200, "{sheet}: {}", answer.text());
                assert_eq!(answer.text(), run.stdout, "{sheet}");
            }
            _ => {
                assert_eq!(answer.status, 400, "{sheet}: {}", answer.text());
                assert_eq!(answer.json()["report"], run.json(), "{sheet}");
            }
        }
    }
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), [0, 2]);
    let answer = served.request("POST", "/api/score", b"");
    assert_eq!(answer.status, 400, "{}", answer.text());
    // The form's modes and tournaments are the scoring data's.
    let modes = served.get("/api/score/modes").json();
    assert_eq!(modes[0]["id"], "standard");
    let tournaments: Vec<&str> = (modes[0]["tournaments"].as_array().expect("tournaments"))
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert_eq!(tournaments, ["pre-release", "round-1", "round-2", "final"]);
    assert_eq!(served.request("POST", "/api/score/modes", b"").status, 405);
    served.still_answers();
}

#[test]
fn the_formats_are_the_pools() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let json = served.get("/api/formats").json();
    let ids: Vec<&str> = (json["formats"].as_array().unwrap().iter())
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids[0], "tournament", "the default first");
    for id in ["millennium-deck", "starting-hand", "holdings"] {
        assert!(ids.contains(&id), "{ids:?}");
    }
    assert_eq!(json["pool"], Value::Null, "the built-in pool");
}

#[test]
fn the_app_and_its_fonts_are_served_from_the_binary() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let page = served.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.text().contains("/assets/app.js"));
    for asset in [
        "app.js",
        "api.js",
        "words.js",
        "deck.js",
        "list.js",
        "style.css",
    ] {
        let answer = served.get(&format!("/assets/{asset}"));
        assert_eq!(answer.status, 200, "{asset}");
        let source = std::fs::read(common::root().join("src/serve/assets").join(asset)).unwrap();
        assert_eq!(answer.body, source, "{asset}");
    }
    let fonts = common::root().join("fonts");
    for font in ["NotoSans-Regular.ttf", "NotoSansJP-Bold.otf", "OFL.txt"] {
        let answer = served.get(&format!("/assets/fonts/{font}"));
        assert_eq!(answer.status, 200, "{font}");
        assert_eq!(
            answer.body,
            std::fs::read(fonts.join(font)).unwrap(),
            "{font}"
        );
    }
    let css = served.get("/assets/fonts.css").text();
    assert_eq!(css.matches("@font-face").count(), 5, "{css}");
    assert!(!css.contains("http"), "fonts from the app only: {css}");
    let head = served.request("HEAD", "/assets/app.js", b"");
    assert_eq!((head.status, head.body.len()), (200, 0));
}

#[test]
fn bad_requests_are_4xx_with_a_message_and_the_server_goes_on() {
    let dir = outside();
    let served = serve_in(dir.path(), &[]);
    let long_query = format!("/api/search?q={}", "a".repeat(1500));
    let long_url = format!("/api/search?q=a&pad={}", "a".repeat(2100));
    let cases: Vec<(&str, String, Vec<u8>, u16, &str)> = vec![
        ("GET", "/no/such/page".into(), vec![], 404, "/no/such/page"),
        ("GET", "/api/nothing".into(), vec![], 404, "nothing"),
        ("GET", "/assets/../Cargo.toml".into(), vec![], 404, ""),
        ("GET", "/assets/%2e%2e/Cargo.toml".into(), vec![], 404, ""),
        (
            "GET",
            "/assets/fonts/../../Cargo.toml".into(),
            vec![],
            404,
            "",
        ),
        (
            "GET",
            "/assets/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd".into(),
            vec![],
            404,
            "",
        ),
        ("GET", "/api/search?q=e%3Afyre".into(), vec![], 400, "fyre"),
        (
            "GET",
            "/api/search?q=&limit=1001".into(),
            vec![],
            400,
            "at most",
        ),
        ("GET", "/api/search?q=&from=-1".into(), vec![], 400, "whole"),
        ("GET", "/api/search?q=&limit=x".into(), vec![], 400, "whole"),
        (
            "GET",
            "/api/search?q=%28e%3Afire".into(),
            vec![],
            400,
            "never closed",
        ),
        (
            "GET",
            "/api/search?q=star%3E%3Dx".into(),
            vec![],
            400,
            "not a number",
        ),
        ("GET", "/api/search?q=%FF".into(), vec![], 400, "UTF-8"),
        (
            "GET",
            "/api/search?q=e:fire&lang=xx".into(),
            vec![],
            400,
            "xx",
        ),
        ("GET", long_query, vec![], 400, "1024"),
        ("GET", long_url, vec![], 414, "2048"),
        (
            "POST",
            "/api/deck/check".into(),
            vec![b'a'; 70 * 1024],
            413,
            "65536",
        ),
        (
            "POST",
            "/api/deck/check".into(),
            vec![0xff, 0xfe, b'\n'],
            400,
            "UTF-8",
        ),
        ("GET", "/api/deck/check".into(), vec![], 405, "POST"),
        ("DELETE", "/api/search".into(), vec![], 405, "GET"),
        ("POST", "/".into(), b"x".to_vec(), 405, "GET"),
        ("PUT", "/api/card/rivet-gremlin".into(), vec![], 405, "GET"),
    ];
    for (method, target, body, status, says) in cases {
        let answer = served.request(method, &target, &body);
        let shown = format!("{method} {}", &target[..target.len().min(60)]);
        assert_eq!(
            answer.status,
            status,
            "{shown}: {}",
            String::from_utf8_lossy(&answer.body)
        );
        assert!(
            answer
                .header("content-type")
                .unwrap()
                .starts_with("application/json"),
            "{shown}"
        );
        let message = answer.json()["error"]
            .as_str()
            .expect("an error message")
            .to_string();
        assert!(message.contains(says), "{shown}: {message}");
        served.still_answers();
    }
    // Another name for the address (DNS rebinding) is refused; its own are not.
    for (host, status) in [
        (format!("evil.example:{}", served.port), 403),
        ("127.0.0.1".to_string(), 403),
        (format!("localhost:{}", served.port), 200),
        (format!("LOCALHOST:{}", served.port), 200),
    ] {
        let request =
            format!("GET /api/formats HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let answer = served.raw(request.as_bytes());
        assert_eq!(answer.status, status, "{host}: {}", answer.text());
    }
    // The search language's diagnostic, located in the query.
    let answer = served.get("/api/search?q=e%3Afyre");
    let json = answer.json();
    let finding = &json["report"]["diagnostics"][0];
    assert_eq!(finding["code"], "search-unknown-value", "{json}");
    assert_eq!(
        (finding["line"].as_u64(), finding["column"].as_u64()),
        (Some(1), Some(3))
    );
    assert!(
        json["error"].as_str().unwrap().contains("fire"),
        "the nearest value: {json}"
    );
    // A body cut short, garbage and a path that is not UTF-8 end no worker:
    // each is refused (a 4xx) or hung up on.
    for raw in [
        &b"POST /api/deck/check HTTP/1.1\r\nContent-Length: 10\r\nConnection: close\r\n\r\nab"[..],
        b"\x00\x01garbage\r\n\r\n",
        b"GET /\xff HTTP/1.1\r\nConnection: close\r\n\r\n",
        b"GET /api/search?q=%ZZ HTTP/1.1\r\nConnection: close\r\n\r\n",
    ] {
        let bytes = served.raw_bytes(raw);
        if !bytes.is_empty() {
            let answer = parse_answer(&bytes);
            assert!((200..500).contains(&answer.status), "{}", answer.status);
        }
        served.still_answers();
    }
    for _ in 0..8 {
        served.still_answers();
    }
}

#[test]
fn it_listens_on_loopback_unless_told_and_then_says_so() {
    let dir = outside();
    let served = serve_in(dir.path(), &["--quiet"]);
    assert_eq!(served.said(), "", "nothing to say on loopback");
    drop(served);
    let open = serve_in(dir.path(), &["--quiet", "--host", "0.0.0.0"]);
    let said = open.said();
    assert!(
        said.contains("0.0.0.0") && said.contains("warning"),
        "{said}"
    );
    open.still_answers();
}

#[test]
fn with_format_json_the_start_is_one_json_line_and_stderr_stays_empty() {
    let dir = outside();
    let mut child = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args([
            "--format", "json", "serve", "--port", "0", "--host", "0.0.0.0",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the blades binary runs");
    let mut line = String::new();
    let read = BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .is_ok();
    let _ = child.kill();
    let output = child.wait_with_output().expect("it ends");
    assert!(read, "a line");
    let started: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert!(
        started["url"]
            .as_str()
            .is_some_and(|u| u.starts_with("http://0.0.0.0:")),
        "{started}"
    );
    assert!(
        started["warning"]
            .as_str()
            .is_some_and(|w| w.contains("0.0.0.0")),
        "{started}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn the_pool_is_read_once_and_never_written() {
    let dir = outside();
    let pool = dir.path().join("cards");
    copy_dir(&common::root().join(RULES_POOL), &pool);
    let before = listing(dir.path());
    let served = serve_in(dir.path(), &[]);
    let (ids, _) = api_ids(&served, "", "en");
    assert!(!ids.is_empty());
    // A set file removed while serving changes no answer: the database
    // was built once, at start.
    let first = std::fs::read_dir(&pool)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let kept = std::fs::read(&first).unwrap();
    std::fs::remove_file(&first).unwrap();
    assert_eq!(api_ids(&served, "", "en").0, ids);
    std::fs::write(&first, kept).unwrap();
    drop(served);
    assert_eq!(listing(dir.path()), before, "nothing written");
}

#[test]
fn a_pool_not_as_built_is_built_by_a_child_whose_scratch_is_gone_before_it_listens() {
    let root = common::root();
    let dir = outside();
    let pool = dir.path().join("cards");
    copy_dir(&root.join(RULES_POOL), &pool);
    let before = listing(dir.path());
    // The system's temp folder, with the scratch of a killed start in it.
    let temp = tempfile::tempdir().unwrap();
    let mut ended = Command::new("true").spawn().unwrap();
    let dead = ended.id();
    ended.wait().unwrap();
    let stale = temp.path().join(format!(".blades-tmp-{dead}-aB3dE9"));
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join(".blades-index"), "half written").unwrap();
    let served = served_built_aside(dir.path(), temp.path());
    let pool = pool.to_str().unwrap();
    for query in ["", "e:fire", "star>=4"] {
        let expected = cli_ids(root, &["--cards", pool], query);
        assert_eq!(api_ids(&served, query, "en").0, expected, "{query}");
    }
    drop(served);
    assert_eq!(
        listing(dir.path()),
        before,
        "nothing written into the pool's folder"
    );
    // With a build of its own, the server reads it and builds nothing.
    let built = Command::new(env!("CARGO_BIN_EXE_blades"))
        .args(["--quiet", "build"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(built.success());
    let served = serve_in_env(dir.path(), &[], &[("TMPDIR", temp.path())]);
    assert!(
        !served.said().contains("built the pool first"),
        "{}",
        served.said()
    );
    assert!(!api_ids(&served, "", "en").0.is_empty());
    drop(served);
    // Edited since that build: built again aside, through a copy of its
    // cache, and answering as the pool now is.
    let set = Path::new(pool).join("tidal-court.yaml");
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::write(
        &set,
        text.replace("name: Reef Knight", "name: Reef Zephyrine"),
    )
    .unwrap();
    let before = listing(dir.path());
    let served = served_built_aside(dir.path(), temp.path());
    let expected = cli_ids(root, &["--cards", pool], "zephyrine");
    assert_eq!(expected, ["reef-knight"]);
    assert_eq!(api_ids(&served, "zephyrine", "en").0, expected);
    drop(served);
    assert_eq!(listing(dir.path()), before, "nothing written");
}

/// The server started in `dir` with `temp` as the system's temp folder,
/// having said it built the pool first and left no scratch in `temp`.
fn served_built_aside(dir: &Path, temp: &Path) -> Served {
    let served = serve_in_env(dir, &[], &[("TMPDIR", temp)]);
    assert!(told_built(&served), "the child built it: {}", served.said());
    assert_eq!(listing(temp), Vec::<PathBuf>::new(), "no scratch left");
    served
}

/// Whether the server said it built the pool first/// Whether the server said it built the pool first (on stderr, before it
/// listens; read by a thread of its own, so waited for a little).
fn told_built(served: &Served) -> bool {
    (0..40).any(|_| {
        let said = served.said().contains("built the pool first");
        if !said {
            std::thread::sleep(Duration::from_millis(50));
        }
        said
    })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path.clone());
            }
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The stages of a `Server-Timing` value (`search;dur=1.2, app;dur=3.4`),
/// each name with its milliseconds; panics on anything else.
fn server_timing(answer: &Answer, what: &str) -> Vec<(String, f64)> {
    let value = (answer.header("server-timing"))
        .unwrap_or_else(|| panic!("{what}: no Server-Timing in {:?}", answer.headers));
    (value.split(','))
        .map(|stage| {
            let (name, dur) = (stage.trim().split_once(";dur="))
                .unwrap_or_else(|| panic!("{what}: not `NAME;dur=MS`: {value}"));
            let ms: f64 =
                (dur.parse()).unwrap_or_else(|_| panic!("{what}: not milliseconds: {value}"));
            assert!(ms.is_finite() && ms >= 0.0, "{what}: {value}");
            (name.to_string(), ms)
        })
        .collect()
}

#[test]
fn every_answer_says_its_server_time() {
    let root = common::root();
    let served = serve_rules_pool(root);
    let read = |path: &str| std::fs::read(root.join(path)).expect("a fixture");
    let first = |folder: &str| read(&fixtures_in(folder)[0]);
    let deck = read("tests/fixtures/rules/deck/legal.txt");
    let two = |a: &[u8], b: &[u8]| {
        serde_json::to_vec(&serde_json::json!({
            "a": String::from_utf8_lossy(a),
            "b": String::from_utf8_lossy(b),
        }))
        .expect("JSON")
    };
    let (ids, _) = api_ids(&served, "", "en");
    let card = format!("/api/card/{}", encoded(&ids[0]));
    let sheet = format!(
        "/api/deck/sheet?deck={}",
        encoded(&String::from_utf8_lossy(&deck))
    );
    let gets = [
        "/api/search?q=e%3Afire",
        "/api/search?q=e%3Afyre",
        card.as_str(),
        "/api/formats",
        "/api/score/modes",
        sheet.as_str(),
        "/api/deck/fonts.css",
        "/api/nothing",
        "/",
        "/assets/app.js",
    ];
    let binder = first("tests/fixtures/rules/binder");
    let posts: Vec<(&str, Vec<u8>)> = vec![
        ("/api/deck/check", deck.clone()),
        ("/api/deck/diff", two(&deck, &deck)),
        ("/api/deck/stats", deck.clone()),
        ("/api/deck/missing", two(&deck, &binder)),
        (
            "/api/collection/check",
            first("tests/fixtures/rules/collection"),
        ),
        ("/api/collection/best", binder.clone()),
        ("/api/trade/check", first("tests/fixtures/rules/trade")),
        ("/api/score", read("examples/inputs/score.yaml")),
    ];
    let answers = (gets.iter().map(|path| (*path, served.get(path))))
        .chain((posts.iter()).map(|(path, body)| (*path, served.request("POST", path, body))));
    let mut statuses = std::collections::BTreeSet::new();
    for (path, answer) in answers {
        statuses.insert(answer.status);
        let stages = server_timing(&answer, path);
        // The whole answer's time last, and no stage longer than it.
        let (last, app) = stages.last().cloned().expect("a stage");
        assert_eq!(last, "app", "{path}: {stages:?}");
        assert!(
            stages.iter().all(|(_, ms)| *ms <= app),
            "{path}: {stages:?}"
        );
    }
    assert_eq!(
        statuses,
        [200, 400, 404].into(),
        "good and bad requests alike"
    );
    // A search says where its time went.
    let answer = served.get("/api/search?q=");
    let stages: Vec<String> = (server_timing(&answer, "search").into_iter())
        .map(|(name, _)| name)
        .collect();
    assert_eq!(stages, ["search", "rows", "json", "app"]);
}
