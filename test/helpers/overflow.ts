/** What does not fit a narrow screen, as browser tests check it: each a list of "tag.class" names. */
import type { Page } from "playwright-core";

/** Boxes in `main` that scroll sideways: a table scrolling in its own box hides its last columns. */
export function scrollingSideways(page: Page): Promise<string[]> {
  return page.locator("main *").evaluateAll((elements) =>
    elements
      .filter((el) => {
        const overflow = getComputedStyle(el).overflowX;
        return (
          (overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1
        );
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  );
}

/**
 * Elements (in `main`, or those `selector` names) that stick out past `edge` (cut off rather
 * than scrolled), with their text.
 */
export function pastRightEdge(page: Page, edge: number, selector = "main *"): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements, right) => {
    return elements
      .filter((el) => {
        const box = el.getBoundingClientRect();
        if (box.width <= 1 || box.right <= right + 1) return false;
        // What a clip hides from sight (a table's visually hidden header) is not cut off.
        for (let up: Element | null = el; up; up = up.parentElement) {
          if (getComputedStyle(up).clipPath !== "none") return false;
        }
        return true;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`);
  }, edge);
}
