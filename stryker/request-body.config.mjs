import { strykerConfig } from "./config.mjs";

export default strykerConfig("request-body");
