/**
 * The emails a person gets when their place in a team changes without them: removed from an
 * account, made its owner, or asked to sign in with a second factor from now on. Each says
 * what changed, who did it, and what to do if it looks wrong. Pure.
 */
import type { Mail } from "../../lib/mailer.ts";

type About = {
  /** The person it concerns. */
  to: string;
  /** Who made the change (a member's email). */
  by: string;
  /** The account's name, as everywhere (db/account-name.ts). */
  account: string;
  /** Links start with it. */
  publicUrl: string;
};

/** To a member taken out of an account. */
export function removedMail({ to, by, account, publicUrl }: About): Mail {
  return {
    to,
    subject: `You were removed from ${account} on Warden`,
    text: `${by} removed you from ${account} on Warden. You can no longer see or change anything in it; any other Warden accounts you belong to are as they were.\n\nIf you think this is a mistake, ask ${by} to invite you again.\n\nWarden: ${publicUrl}/\n`,
  };
}

/** To the member who becomes the account's owner. */
export function ownerMail({ to, by, account, publicUrl }: About): Mail {
  return {
    to,
    subject: `You are now the owner of ${account} on Warden`,
    text: `${by} made you the owner of ${account} on Warden; ${by} is an admin now. As the owner you can change anyone's role, require two-factor sign-in, and hand ownership on.\n\nThe Team page: ${publicUrl}/homepage/team\n\nIf you did not expect this, talk to ${by}.\n`,
  };
}

/** To a member without a second factor, when the account starts requiring one. */
export function twoFactorRequiredMail({ to, account, publicUrl }: Omit<About, "by">): Mail {
  return {
    to,
    subject: `${account} now requires two-factor sign-in`,
    text: `An owner of ${account} on Warden turned on "Require two-factor sign-in". The next time you open it, Warden asks you to set up an authenticator app before anything else; it takes a minute.\n\nSet it up now, under Settings: ${publicUrl}/homepage/settings#two-factor\n`,
  };
}
