import { strykerConfig } from "./config.mjs";

export default strykerConfig("auth-tenancy");
