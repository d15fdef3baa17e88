/**
 * Handing the account over and leaving it. An owner picks a member and confirms once more
 * before they become the owner (and the owner an admin); anyone but the last owner may leave,
 * after a confirmation, and the console then opens their next account (or the login page).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import type { MemberView } from "../../../../shared/schemas/team.ts";
import { can, ROLE_LABELS, type Role } from "../../../../shared/team/roles.ts";
import { ErrorMessage } from "../../components/error-message.tsx";
import { useRefreshSession } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { leaveBlocked } from "./team-format.ts";

type Props = { members: MemberView[]; role: Role };

export function OwnershipSection({ members, role }: Props) {
  const owners = members.filter((member) => member.role === "owner").length;
  return (
    <section className="panel tm-panel" aria-labelledby="ownership-title">
      <h2 id="ownership-title">{can(role, "own") ? "Ownership and leaving" : "Leaving"}</h2>
      {can(role, "own") && <TransferOwnership members={members} />}
      <LeaveAccount blocked={leaveBlocked(role, owners)} />
    </section>
  );
}

function TransferOwnership({ members }: { members: MemberView[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const candidates = members.filter((member) => member.role !== "owner");
  const [chosen, setChosen] = useState("");
  const [confirming, setConfirming] = useState(false);
  const transfer = useMutation(
    trpc.team.transferOwnership.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        setChosen("");
        // Your role changed: every cached answer was read as an owner.
        await queryClient.invalidateQueries();
      },
    }),
  );
  const heir = candidates.find((member) => member.user_id === chosen);

  if (candidates.length === 0) {
    return (
      <p className="config-note">
        To hand this account over, invite the new owner first: ownership goes to a member.
      </p>
    );
  }
  return (
    <div className="stack tm-transfer">
      <p className="config-note">
        The member you choose becomes the owner; you stay on as an admin.
      </p>
      <div className="inline-form">
        <label>
          New owner
          <select
            name="new_owner"
            value={chosen}
            disabled={confirming}
            onChange={(event) => setChosen(event.target.value)}
          >
            <option value="">Choose a member…</option>
            {candidates.map((member) => (
              <option key={member.user_id} value={member.user_id}>
                {member.email} ({ROLE_LABELS[member.role]})
              </option>
            ))}
          </select>
        </label>
        {!confirming && (
          <button
            type="button"
            className="secondary"
            disabled={!heir}
            onClick={() => {
              transfer.reset();
              setConfirming(true);
            }}
          >
            Transfer ownership…
          </button>
        )}
      </div>
      {confirming && heir && (
        <div className="tm-confirm">
          <span>
            Make {heir.email} the owner of this account? You will become an admin and can no longer
            change ownership or security settings.
          </span>
          <button
            type="button"
            className="danger"
            disabled={transfer.isPending}
            onClick={() => transfer.mutate({ user_id: heir.user_id })}
          >
            Yes, transfer ownership
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <ErrorMessage error={transfer.error} />
    </div>
  );
}

function LeaveAccount({ blocked }: { blocked: string | null }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [confirming, setConfirming] = useState(false);
  const leave = useMutation(
    trpc.team.leave.mutationOptions({
      onSuccess: async () => {
        // The session now acts in another of your accounts, or in none (the login page).
        await refreshSession();
        navigate("/homepage/dashboard");
      },
    }),
  );
  return (
    <div className="stack tm-leave">
      {blocked ? (
        <p className="config-note">{blocked}</p>
      ) : confirming ? (
        <div className="tm-confirm">
          <span>Leave this account? You lose access to it until someone invites you again.</span>
          <button
            type="button"
            className="danger"
            disabled={leave.isPending}
            onClick={() => leave.mutate()}
          >
            Yes, leave
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <div>
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            Leave this account…
          </button>
        </div>
      )}
      <ErrorMessage error={leave.error} />
    </div>
  );
}
