/**
 * The bottom bar's "More" tab on phones: a menu of the pages the bar has no room for. Hidden
 * by CSS on wider screens, where the sidebar lists every page, so each link is shown once.
 */
import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { NavIcon } from "./nav-icons.tsx";
import type { NavItem } from "./nav-items.ts";

export function MoreMenu({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const current = items.some((item) => pathname.startsWith(item.to));

  // A chosen page closes the menu; so do a tap elsewhere and Escape. The <details> keeps its
  // own open state, so a close right after the tap that opened it is never lost.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new path
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const close = () => {
      if (menu.current?.open) menu.current.open = false;
    };
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  return (
    <details ref={menu} className={current ? "nav-more active" : "nav-more"}>
      <summary>
        <NavIcon name="more" />
        <span className="nav-label">More</span>
      </summary>
      <div className="nav-more-list">
        {items.map((item) => (
          // Marked by aria-current, not NavLink's "active": only the sidebar's links carry that.
          <Link
            key={item.to}
            to={item.to}
            aria-current={pathname.startsWith(item.to) ? "page" : undefined}
          >
            <NavIcon name={item.icon} />
            <span className="nav-label">{item.label}</span>
          </Link>
        ))}
      </div>
    </details>
  );
}
