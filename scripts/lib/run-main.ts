/**
 * Runs a script's main: a failure is printed (its message, or as `show` words it) and sets exit
 * code 1; `after` runs either way (bench-process's cleanup, for a script that started servers).
 */
export function runMain(
  main: () => Promise<void>,
  {
    show = (error) => (error instanceof Error ? error.message : error),
    after = () => {},
  }: { show?: (error: unknown) => unknown; after?: () => unknown } = {},
): void {
  main()
    .catch((error: unknown) => {
      console.error(show(error));
      process.exitCode = 1;
    })
    .finally(after);
}
