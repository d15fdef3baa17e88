/** The classic-script build: `<script src=".../sdk/warden.js">` defines window.Warden. */
import Warden from "./warden.ts";

declare global {
  interface Window {
    Warden: typeof Warden;
  }
}

window.Warden = Warden;
