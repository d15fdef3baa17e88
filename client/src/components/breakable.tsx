/** An email, id or address that wraps at its separators on a narrow screen (see breakPoints). */
import { Fragment } from "react";
import { breakPoints } from "../lib/break-points.ts";

export function Breakable({ value }: { value: string }) {
  return (
    <span className="breakable">
      {breakPoints(value).map((piece, at) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces are fixed for a value
        <Fragment key={at}>
          {at > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
