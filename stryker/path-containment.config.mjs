import { strykerConfig } from "./config.mjs";

export default strykerConfig("path-containment");
