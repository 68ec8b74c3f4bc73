import { strykerConfig } from "./config.mjs";

export default strykerConfig("size-limits");
