/**
 * Row types of the tables that more than one module reads or writes, so no module imports
 * another's repository for a type. They are the Prisma models as generated from
 * prisma/schema.prisma (shared/ holds wire types and never imports server code).
 */
import type { Transaction } from "./generated/client.ts";

/** A charge as stored: the one row type of the Transaction table (dashboard, Stripe ingest). */
export type TransactionRow = Transaction;
