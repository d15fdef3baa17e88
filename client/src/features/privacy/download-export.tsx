/**
 * "Download export": everything stored about the person (endUsers.export) saved as a JSON file
 * named by the time it was made, never by the values asked about.
 */
import { useMutation } from "@tanstack/react-query";
import type { EndUserSelector } from "../../../../shared/schemas/end-users.ts";
import { errorMessage, useTRPCClient } from "../../lib/trpc.ts";
import { exportFileName } from "./data-request-format.ts";

export function DownloadExport({ selector }: { selector: EndUserSelector }) {
  const client = useTRPCClient();
  const download = useMutation({
    mutationFn: () => client.endUsers.export.query(selector),
    onSuccess: (data) => saveJson(data, exportFileName(data.exported_at)),
  });
  return (
    <div className="dr-download">
      <button
        type="button"
        className="secondary"
        disabled={download.isPending}
        onClick={() => download.mutate()}
      >
        {download.isPending ? "Preparing…" : "Download export"}
      </button>
      {download.error && (
        <p className="message error" role="alert">
          The export failed: {errorMessage(download.error)}
        </p>
      )}
    </div>
  );
}

function saveJson(data: unknown, name: string) {
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}
