//! Command-line cases as data: each `tests/cmd/**/*.toml` holds the
//! arguments (and stdin), the expected exit code, and beside it the
//! expected `.stdout` and `.stderr`. Run from the repository root; after a
//! deliberate change of output, `TRYCMD=overwrite cargo test --test
//! cli_cases` rewrites the expected files for review.

#[test]
fn cli_cases() {
    trycmd::TestCases::new()
        .env("NO_COLOR", "1")
        .case("tests/cmd/**/*.toml");
}
