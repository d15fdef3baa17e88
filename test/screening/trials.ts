/** A trial start from one device, email and address: what the one-trial-per-device tests send. */
import type { Backend } from "../helpers/screening.ts";

export function trialFrom(backend: Backend, device_id: string, email: string, ip: string) {
  return backend.decide({ type: "trial_start", device_id, email, ip });
}
