// Package bench runs gosct's strategies over the testprogs corpus and
// renders the results next to the SCTBench paper's figures (Table IV of
// Thomson, Donaldson and Betts 2015).
//
// Each program's instrumented test binary is built once and then run once
// per strategy, with the configuration passed in GOSCT_CONFIG exactly as
// the gosct command does, so the figures measure the runtime and the
// strategies, not the build.
package bench
