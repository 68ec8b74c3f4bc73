import { strykerConfig } from "./config.mjs";

export default strykerConfig("state-bounds");
