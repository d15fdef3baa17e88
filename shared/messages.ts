/** Exact user-facing strings from the product spec, in one place for client, server and tests. */
export const MESSAGES = {
  signupSuccess: "Signup successful! Check your email to confirm.",
  resetEmailSent: "Password reset email sent! (Check your spam folder.)",
  passwordUpdated: "Password updated!",
  passwordsDoNotMatch: "Passwords do not match.",
  resetFieldsRequired: "Please enter and confirm your new password.",
  noResetSession: "You do not have a valid reset session.",
  resetTokenFailed: "Invalid or expired reset link. Please request a new one.",
  invalidLinkTitle: "Invalid or Expired Link",
  invalidLinkBody: "This password reset link is invalid or expired.",
  invalidLink: "Invalid Link",
  verifyingLink: "Verifying link...",
  resetDone: "Your password has been updated! Redirecting to login...",
  invalidCredentials: "Invalid email or password.",
  currentPasswordWrong: "Your current password is not correct.",
  emailNotConfirmed:
    "Please confirm your email before logging in. We sent you a link when you signed up.",
  emailConfirmed: "Your email is confirmed. You can now log in.",
  confirmLinkInvalid: "This confirmation link is invalid or expired.",
  tooManyLoginFailures:
    "Too many failed login attempts for this email. Please wait 15 minutes and try again.",
  tooManyRequests: "Too many requests. Please wait a moment and try again.",
  signInRequired: "Please log in.",
  noAccount: "You are no longer a member of any Warden account. Ask an owner for an invitation.",
  twoFactorPending: "Enter the code from your authenticator app to finish signing in.",
  twoFactorRequiredByAccount:
    "This account requires two-factor sign-in. Turn it on under Settings, Two-factor sign-in, first.",
  forbiddenForRole: "Your role in this account does not allow this.",
  waitlistInvalidEmail: "Please enter a valid email.",
  waitlistJoined: "Thanks! You are on the list.",
  waitlistAlreadyListed: "You are already on the list.",
  waitlistFailed: "Something went wrong. Please try again.",
  waitlistSubmitting: "Submitting...",
  waitlistPlaceholder: "Enter your E-mail",
  waitlistNote: "No spam, just project news.",
  waitlistTooManyRequests:
    "Too many attempts from your network. Please wait a minute and try again.",
  settingsSaved: "Settings saved!",
  loadingBlocklist: "Loading block lists…",
  blocklistNote:
    "Users with emails from blocked providers are blocked at checkout, and blocked countries are blocked for payments.",
  twoFactorCodeWrong: "That code is not correct. Check your authenticator app and try again.",
  twoFactorCodeUsed:
    "That code was used already. Wait for the next code in your authenticator app.",
  tooManyTwoFactorFailures: "Too many wrong codes. Please wait 15 minutes and try again.",
  twoFactorAlreadyOn: "Two-factor sign-in is already on.",
  twoFactorNotOn: "Two-factor sign-in is not on.",
  twoFactorNotStarted: "Start setting up two-factor sign-in first, then enter the code it shows.",
  twoFactorNotPending: "This session is signed in already: it needs no code.",
  // The team (server/modules/team).
  lastOwner: "You are the last owner: transfer ownership first.",
  lastOwnerOther: "This is the account's last owner: make another member an owner first.",
  onlyOwnerChangesOwner: "Only an owner can change or remove an owner.",
  onlyOwnerMakesOwner: "Only an owner can make someone an owner.",
  alreadyMember: "This person is already a member of the account.",
  memberNotFound: "There is no such member in this account.",
  inviteNotFound: "There is no such invitation in this account.",
  tooManyPendingInvites:
    "This account has 50 invitations waiting for an answer. Revoke some before inviting more.",
  tooManyInvites: "Too many invitations in the last hour. Please wait and try again.",
  inviteLinkInvalid:
    "This invitation link is not valid. Ask the person who invited you for a new one.",
  inviteExpired: "This invitation has expired. Ask the person who invited you for a new one.",
  inviteRevoked: "This invitation was withdrawn. Ask the person who invited you for a new one.",
  inviteUsed: "This invitation was already accepted.",
  inviteHasLogin:
    "There is already a Warden login for this email: log in, then accept the invitation.",
  transferToSelf: "You already own this account: choose another member.",
  transferToOwner: "This member is an owner already.",
} as const;

/** How long after a successful reset the page moves to /login. */
export const RESET_REDIRECT_MS = 2000;
