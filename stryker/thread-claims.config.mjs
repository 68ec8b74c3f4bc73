import { strykerConfig } from "./config.mjs";

export default strykerConfig("thread-claims");
