/** A colour for a status cell or tile: the `tone-<name>` classes in styles.css. */
export type Tone = "red" | "green" | "yellow" | "gray";
