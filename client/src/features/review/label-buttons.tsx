/**
 * Label a screening or a charge fraud or legitimate from wherever it is shown, with its
 * current label (the newest; earlier ones stay as history on the server).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LabelSubjectKind, LabelValue } from "../../../../shared/schemas/labels.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import "./label-buttons.css";

export function LabelButtons({ kind, id }: { kind: LabelSubjectKind; id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const subject = { subject_kind: kind, subject_id: id };
  const history = useQuery(trpc.labels.history.queryOptions(subject));
  const add = useMutation(
    trpc.labels.add.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.labels.history.queryKey(subject) }),
    }),
  );
  const current = history.data?.[0];
  const label = (value: LabelValue) => add.mutate({ ...subject, label: value });
  return (
    <div className="label-buttons">
      <span>
        Label:{" "}
        <b data-label={current?.label ?? "none"}>
          {current ? `${current.label} (${current.who})` : "none"}
        </b>
      </span>
      <button
        type="button"
        className="secondary"
        disabled={add.isPending}
        onClick={() => label("fraud")}
      >
        Label fraud
      </button>
      <button
        type="button"
        className="secondary"
        disabled={add.isPending}
        onClick={() => label("legitimate")}
      >
        Label legitimate
      </button>
      {add.isError && <span role="alert">{errorMessage(add.error)}</span>}
    </div>
  );
}
