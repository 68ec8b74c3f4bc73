import { strykerConfig } from "./config.mjs";

export default strykerConfig("tool-args");
