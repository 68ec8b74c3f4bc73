import { strykerConfig } from "./config.mjs";

export default strykerConfig("graph-walk");
