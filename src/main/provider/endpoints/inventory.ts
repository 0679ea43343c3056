import { invRateControlSchema, type InvRateControl } from '../../../shared/su/inventory';
import { localToday } from '../../../shared/dates';
import { isSuccess } from '../envelope';
import { callEndpoint, pathInText, pick, type ProviderContext } from '../request';

/**
 * Endpoint 13: inventory, rate and closed rules. The request overwrites the whole rule set of every date it
 * names, so callers compose it from everything they want to keep (the rates feature does that). Rule values
 * go out as strings, as in the provider's samples.
 */
export function sendRules(
  ctx: ProviderContext,
  input: InvRateControl,
  today: string = localToday(),
): Promise<{ ticketId: string | null }> {
  return callEndpoint(
    ctx,
    {
      what: 'Sending rates and availability',
      host: 'main',
      path: '/jservice/invratecontrol',
      auth: 'bearer',
      schema: invRateControlSchema(today),
      toWire: (request) => {
        const stringify = <T extends { OTARule: { rule: { value?: string | number } }[] }>(range: T): T => ({
          ...range,
          OTARule: range.OTARule.map((r) => ({
            ...r,
            rule: r.rule.value === undefined ? r.rule : { ...r.rule, value: String(r.rule.value) },
          })),
        });
        return {
          ...request,
          ...(request.inventorycontrol && {
            inventorycontrol: request.inventorycontrol.map((c) => ({ ...c, date: c.date.map(stringify) })),
          }),
          ...(request.ratecontrol && {
            ratecontrol: request.ratecontrol.map((c) => ({ ...c, date: c.date.map(stringify) })),
          }),
        };
      },
      parse: (body) => (isSuccess(body) ? { ticketId: (pick(body, 'TicketId', 'ticketId') as string) ?? null } : null),
      // 925 names the date in its text ("fromdate has passed (…)"); other refusals may name a path.
      fieldFor: (p) => p.field ?? pathInText(p.text),
    },
    input,
  );
}
