/** What another module needs of alerts: the rows of a new account's default alerts. */
export { defaultAlertRows } from "./defaults.ts";
