/**
 * The file the path-escape golden fixture's symbolic link leads to (test/support/fixture-links.ts):
 * a real module, outside test/fixtures (the golden tests' project root). validate refuses the link
 * and never reads this file.
 */
export const lookupTicket = async ({ ticket_id }: { ticket_id: string }) =>
  `no ticket ${ticket_id}`;
