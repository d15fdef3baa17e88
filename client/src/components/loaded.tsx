/** A query's data handed to `children` once it has come; until then "Loading…", or its failure. */
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorMessage } from "../lib/trpc.ts";
import { LoadError } from "./save-status.tsx";

export function Loaded<T, E>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T, E>;
  /** What failed to load, as the error line names it ("the team"). */
  what: string;
  children(data: T): ReactNode;
}) {
  if (query.isError) return <LoadError what={what} error={errorMessage(query.error)} />;
  if (query.data === undefined) return <p className="loading">Loading…</p>;
  return children(query.data);
}
