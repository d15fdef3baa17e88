// popular-english-words 1.0.2 ships no types; scripts/build-training-text.ts uses only this.
declare module "popular-english-words" {
  export const words: { getMostPopular(count: number): string[] };
}
