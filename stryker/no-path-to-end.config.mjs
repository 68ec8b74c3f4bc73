import { strykerConfig } from "./config.mjs";

export default strykerConfig("no-path-to-end");
