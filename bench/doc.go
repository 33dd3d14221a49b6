// Package bench runs gosct's strategies over the testprogs corpus and
// renders the results next to the SCTBench paper's figures (Table IV of
// Thomson, Donaldson and Betts 2015). cmd/gosct-bench is its command:
//
//	go run ./cmd/gosct-bench                  # everything; writes docs/results.md
//	go run ./cmd/gosct-bench --programs abba --strategies random,pb --out ""
//	go run ./cmd/gosct-bench --from raw.json  # re-render a run saved with --raw
//
// Each program's instrumented test binary is built once and then run once
// per strategy, with the configuration passed in GOSCT_CONFIG exactly as
// the gosct command does, so the figures measure the runtime and the
// strategies, not the build. Random and PCT run the whole schedule limit
// with KeepGoing, and the buggy schedules are counted from the schedule
// subtests that failed (the runtime reports each distinct bug once, but
// fails the subtest of every buggy schedule); the other strategies stop at
// the first bug.
package bench
