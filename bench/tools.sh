# Sourced by the whole-process bench scripts: the scratch folder, and the release `blades`
# and pool generator (`synth`), built unless BLADES and SYNTH name binaries to use (a debug
# build gives ratios only). Sets $scratch, $blades and $synth.
scratch=target/bench-scratch
mkdir -p "$scratch"
if [ -z "${BLADES:-}" ]; then
  cargo build --release --quiet --bin blades --example synth
fi
blades=$PWD/${BLADES:-target/release/blades}
synth=$PWD/${SYNTH:-target/release/examples/synth}
