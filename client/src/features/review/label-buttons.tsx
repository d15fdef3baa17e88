/**
 * Label a screening or a charge fraud or legitimate from wherever it is shown, with its
 * current label (the newest; earlier ones stay as history on the server).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  LABELS,
  type LabelSubjectKind,
  type LabelValue,
  type LabelView,
} from "../../../../shared/schemas/labels.ts";
import { RoleNote, useRoleReason } from "../../components/editable.tsx";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import "./label-buttons.css";

/** Reads the subject's label history itself (the screenings and dashboard tables). */
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
  return (
    <LabelChoice
      className="label-buttons"
      current={history.data?.[0]}
      busy={add.isPending}
      error={add.isError ? errorMessage(add.error) : null}
      onLabel={(value) => add.mutate({ ...subject, label: value })}
    />
  );
}

/** The current label and the two buttons; the caller knows the label and saves a new one. */
export function LabelChoice(props: {
  className: string;
  current: Pick<LabelView, "label" | "who"> | null | undefined;
  busy: boolean;
  error: string | null;
  onLabel(value: LabelValue): void;
}) {
  const { current } = props;
  // Labelling is the review permission (as on the server): a viewer sees why the buttons are off.
  const denied = useRoleReason("review");
  return (
    <div className={props.className}>
      <span>
        Label:{" "}
        <b data-label={current?.label ?? "none"}>
          {current ? `${current.label} (${current.who})` : "none"}
        </b>
      </span>
      {LABELS.map((value) => (
        <button
          key={value}
          type="button"
          className="secondary"
          disabled={props.busy || Boolean(denied)}
          title={denied ?? undefined}
          onClick={() => props.onLabel(value)}
        >
          Label {value}
        </button>
      ))}
      <RoleNote reason={denied} />
      {props.error && <span role="alert">{props.error}</span>}
    </div>
  );
}
