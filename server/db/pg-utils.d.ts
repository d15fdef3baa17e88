/** node-postgres's own value formatting, used to send values to PGlite as text (sql-runner.ts). */
declare module "pg/lib/utils.js" {
  const utils: {
    /** A value as node-postgres sends it as a parameter: text, a Buffer, or null. */
    prepareValue(value: unknown): string | Buffer | null;
  };
  export default utils;
}
