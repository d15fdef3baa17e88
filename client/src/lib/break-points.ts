/**
 * Where an email, id or address may wrap on a narrow screen: before "@" and after the
 * separators inside it (". - _ + / :"), so "jane.doe@mail.example.com" wraps as
 * "jane.doe" / "@mail.example.com" rather than at whatever letter meets the edge.
 * Pure; the pieces, joined, are the value again.
 */
export function breakPoints(value: string): string[] {
  return value.split(/(?=@)|(?<=[.\-_+/:])(?=[^.\-_+/:])/).filter((piece) => piece !== "");
}
