import { strykerConfig } from "./config.mjs";

export default strykerConfig("write-guard");
