/** Warden's shield and name, inside the home link of the console and of the landing page. */
export function LogoMark() {
  return (
    <>
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <path fill="currentColor" d="M16 2 4 7v8c0 7.2 5.1 13.4 12 15 6.9-1.6 12-7.8 12-15V7z" />
        <path fill="#fff" d="m10 16 4 4 8-8-1.6-1.6-6.4 6.4-2.4-2.4z" />
      </svg>
      <span>Warden</span>
    </>
  );
}
