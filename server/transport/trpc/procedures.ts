/**
 * The tRPC router from the operations' rows: each row with a procedure (all but the REST-only
 * ones) becomes one, named `<area>.<name>`, behind the gate for its operation, reading its
 * input and output with the row's schemas and making the row's one call. The types follow
 * the rows, so the console's client infers each procedure's input and output as before.
 */
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import type { z } from "zod";
import type { Area, Operation } from "../operation.ts";
import { gated, type RootTypes, router } from "./init.ts";

type Def<R> =
  R extends Operation<infer _N, infer _K, infer I, infer O, infer Out>
    ? {
        // biome-ignore lint/suspicious/noConfusingVoidType: tRPC's own (called with no argument)
        input: I extends z.ZodType ? z.input<I> : void;
        output: O extends z.ZodType ? z.output<O> : Out;
        meta: RootTypes["meta"];
        errorShape: RootTypes["errorShape"];
      }
    : never;

/** The procedure a row becomes, typed as tRPC's builder would have typed it. */
type ProcedureOf<R> = R extends { kind: "query" }
  ? TRPCQueryProcedure<Def<R>>
  : TRPCMutationProcedure<Def<R>>;

/** An area's rows that have a procedure (a row with `trpc: false` has none). */
type Procedures<A> = {
  [K in keyof A as A[K] extends { trpc?: true } ? K : never]: ProcedureOf<A[K]>;
};

/** One procedure: the gate, the row's schemas, and the row's call with what the gate let in. */
function procedureOf(name: string, row: Operation) {
  let builder = gated({ ...row, name });
  if (row.input) builder = builder.input(row.input) as unknown as typeof builder;
  if (row.output) builder = builder.output(row.output) as unknown as typeof builder;
  const handler = row.handler as (handed: object, input: unknown) => Promise<unknown>;
  const resolve = ({ ctx, input }: { ctx: object; input: unknown }) =>
    handler({ ...ctx, admitted: undefined }, input);
  return row.kind === "query" ? builder.query(resolve) : builder.mutation(resolve);
}

/** One area's router: a procedure for each of its rows that has one. */
export function areaRouter<A extends Area>(area: string, rows: A) {
  const procedures = Object.entries(rows)
    .filter(([, row]) => row.trpc !== false)
    .map(([name, row]) => [name, procedureOf(`${area}.${name}`, row)]);
  return router(Object.fromEntries(procedures) as unknown as Procedures<A>);
}

type AreaRouter<A extends Area> = ReturnType<typeof areaRouter<A>>;
type Routers<C extends Record<string, Area>> = {
  [A in keyof C as keyof Procedures<C[A]> extends never ? never : A]: AreaRouter<C[A]>;
};

/** The app's router: one sub-router per area that has a procedure (REST-only areas have none). */
export function appRouterOf<C extends Record<string, Area>>(areas: C) {
  const routers = Object.entries(areas)
    .filter(([, rows]) => Object.values(rows).some((row) => row.trpc !== false))
    .map(([area, rows]) => [area, areaRouter(area, rows)]);
  return router(Object.fromEntries(routers) as Routers<C>);
}
