// V8 settings for a command that runs for a second or two. Such a run pays
// V8's warm-up in full: at 10k reports the optimising compiler (TurboFan) was
// about a quarter of all the CPU of `wsc plan`, on its helper threads, and the
// young generation's collections were run over and over while the heap grew
// to its working size. Each flag was measured on `wsc plan` at 10k (CPU of
// the whole process, medians of 7 to 9 runs interleaved with the build
// without it, against one emulator; README, Performance):
// - --no-turbo-inlining: functions are optimised one by one instead of with
//   their callees inlined; much smaller graphs to compile, for code that runs
//   only a few thousand times (about -110 ms, -6%);
// - --semi-space-growth-factor=16: the young generation reaches its usual
//   maximum in one step rather than doubling through several sizes, so there
//   are fewer scavenges of data that stays (about -75 ms; peak RSS about
//   +5 MB);
// - --no-turbo-loop-peeling, --no-turbo-escape: two of the optimising
//   compiler's costlier passes, which pay off only in long-running loops
//   (together about -60 ms).
// They are set once the process runs (v8.setFlagsFromString), which V8 allows
// for these: each is read when it applies. Node warns that changing other
// flags then can crash (GC threading flags do), so this list stays short,
// and only on the V8 it was measured on (Node 20's); elsewhere V8's defaults
// stand. The long-running emulator keeps V8's defaults too, and so does any
// run with WSC_V8_DEFAULTS set (a way out, should a flag ever misbehave).
export const SHORT_RUN_V8_FLAGS: readonly string[] = ['--no-turbo-inlining', '--semi-space-growth-factor=16', '--no-turbo-loop-peeling', '--no-turbo-escape'];

/** The flags to set for `command` on V8 `v8Version` (process.versions.v8): none but on V8 11.3 (Node 20), and none for the emulator or when `keepDefaults`. */
export function shortRunV8Flags(v8Version: string, command: string | undefined, keepDefaults = false): readonly string[] {
  if (keepDefaults || command === 'emulator') return [];
  return v8Version.startsWith('11.3.') ? SHORT_RUN_V8_FLAGS : [];
}
