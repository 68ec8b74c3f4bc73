/**
 * LangGraph Studio (LangSmith's agent IDE) on `graphspec dev`: the origin dev lets call it by
 * default, and the link that opens Studio on it — in the form the official dev server prints
 * (`@langchain/langgraph-api`'s `spawnServer`: `${studioUrl}/studio?baseUrl=${url}`).
 */

/** Where Studio lives: the official CLI's default `--studio-url`. */
export const STUDIO_URL = "https://smith.langchain.com";

/** The link that opens Studio (at `studioUrl`, an origin) on the server at `apiUrl`. */
export const studioLink = (apiUrl: string, studioUrl: string = STUDIO_URL): string =>
  `${studioUrl}/studio?baseUrl=${apiUrl}`;
