/**
 * How many stored rows hold a person, by where they are (EXPORT_SOURCES' sentences). After an
 * erasure, the sources it keeps (the counting identities' digests) say "kept" and are left out
 * of the sum.
 */
import type { EndUserCounts, ExportSource } from "../../../../shared/schemas/end-users.ts";
import { countRows, totalHeld } from "./data-request-format.ts";

export function CountsTable(props: {
  counts: EndUserCounts;
  caption: string;
  kept?: readonly ExportSource[];
}) {
  const kept = new Set(props.kept ?? []);
  const rows = countRows(props.counts);
  const total = totalHeld(props.counts, props.kept);
  return (
    <div className="dr-scroll">
      <table className="dr-table" aria-label={props.caption}>
        <thead>
          <tr>
            <th scope="col">Where</th>
            <th scope="col" className="dr-count">
              Rows
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.source} data-source={row.source} className={row.count ? "" : "dr-none"}>
              <td>{row.label}</td>
              <td className="dr-count">
                {row.count}
                {kept.has(row.source) && " kept"}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{kept.size > 0 ? "Changed in all" : "In all"}</th>
            <td className="dr-count" data-source="total">
              {total}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
