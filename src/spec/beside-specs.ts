/**
 * Files that live beside the specs and are not graphs: `graphspec test` fixtures (`x.test.yaml`)
 * and recordings of provider exchanges (`x.recording.json`, `graphspec run --record`). Every
 * discovery of specs in a folder — validate's, dev's watcher, the server's catalog — leaves them out.
 */

/** A fixture or a recording, by its file name. */
export const BESIDE_SPECS = /\.(test\.(ya?ml|json)|recording\.json)$/i;

/** The same files as globs, for a directory expanded with tinyglobby. */
export const BESIDE_SPECS_GLOBS = ["**/*.test.{yaml,yml,json}", "**/*.recording.json"];
