/** A card table (components/card-table.css) whose rows open to a detail row below them; the dashboard's and the screenings' tables. */
import { Fragment, type ReactNode, useState } from "react";
import "./card-table.css";
import { TableHead } from "./table-head.tsx";

/** Which rows are open, and a flip for one. */
function useOpenRows() {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const flip = (id: string) =>
    setOpen((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return { open, flip };
}

export function ExpandableTable<Row extends { id: string }>({
  rows,
  columns,
  prefix,
  caption,
  detailId,
  row: renderRow,
  detail,
}: {
  rows: Row[];
  columns: readonly string[];
  /** The class prefix of the scroll box, the table and the detail row ("tx", "sc"). */
  prefix: string;
  caption: string;
  /** The id of a row's detail, which its opener controls. */
  detailId(id: string): string;
  row(row: Row, open: boolean, onFlip: () => void): ReactNode;
  detail(row: Row): ReactNode;
}) {
  const { open, flip } = useOpenRows();
  return (
    <div className={`${prefix}-scroll card-scroll`}>
      <table className={`${prefix}-table card-table`}>
        <caption className="visually-hidden">{caption}</caption>
        <TableHead columns={columns} />
        <tbody>
          {rows.map((row) => (
            <Fragment key={row.id}>
              {renderRow(row, open.has(row.id), () => flip(row.id))}
              {open.has(row.id) && (
                <tr className={`${prefix}-detail card-detail`} id={detailId(row.id)}>
                  <td colSpan={columns.length}>{detail(row)}</td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
