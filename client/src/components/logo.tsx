import { Link } from "react-router";
import { LogoMark } from "./logo-mark.tsx";

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="Warden home">
      <LogoMark />
    </Link>
  );
}
