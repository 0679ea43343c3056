import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { validateToken } from '../../src/main/provider/auth';
import { createHostClient } from '../../src/main/provider/http';
import { envelopeProblems, isSuccess, parseBody, providerError } from '../../src/main/provider/envelope';
import { fixtureText } from '../support/fixtures';

describe('provider envelopes', () => {
  it('reads both token envelopes as success', () => {
    expect(isSuccess(parseBody(fixtureText('token-response-sandbox.json')))).toBe(true);
    expect(isSuccess(parseBody(fixtureText('token-response-production-older.json')))).toBe(true);
  });

  it('turns the 401 fixture (Errors as one object) into code 497 with its text', () => {
    const error = providerError({ status: 401, body: fixtureText('auth-failure-401.json') }, 'Checking the token');
    expect(error).toMatchObject({ code: 'unauthorized', providerCode: '497', httpStatus: 401, retryable: false });
    expect(error.message).toBe('Checking the token failed: Authorization Required (code 497).');
  });

  it('reads NotProcessed with an Errors array', () => {
    const body = '{"Errors":[{"Code":"925","ShortText":"fromdate has passed (2020-08-30)"}],"Status":"NotProcessed"}';
    expect(providerError({ status: 400, body }, 'Sending rates')).toMatchObject({ code: '925', httpStatus: 400 });
  });

  it('uses Message when Errors is empty (deserialization failure)', () => {
    const body = '{"Status":"Fail","Errors":[],"Message":"parking_location: accepted values NEARBY, ON_SITE"}';
    expect(envelopeProblems(parseBody(body))).toEqual([
      { code: null, text: 'parking_location: accepted values NEARBY, ON_SITE' },
    ]);
  });

  it('maps payment-host "field : reason" messages back to the field', () => {
    const body = '{"Status":"Fail","ErrorMessages":["customer_email : must be at most 50 characters"]}';
    const error = providerError({ status: 400, body }, 'Creating the payment link');
    expect(error).toMatchObject({
      field: 'customer_email',
      fields: { customer_email: 'must be at most 50 characters' },
    });
  });

  it('reads messaging failures from `response`, as text or as an array', () => {
    expect(envelopeProblems({ status: 'Fail', response: 'No property found' })[0]?.text).toBe('No property found');
    expect(envelopeProblems({ status: 'Fail', response: [{ message: 'Thread closed' }] })[0]?.text).toBe(
      'Thread closed',
    );
  });

  it('a body with trailing commas still parses; a body that is not JSON is a clear error with the status', () => {
    expect(parseBody('{"Status":"Fail","Errors":[{"Code":"1","ShortText":"x",}],}')).toMatchObject({ Status: 'Fail' });
    const error = providerError({ status: 502, body: '<html>Bad gateway</html>' }, 'Getting an access token');
    expect(error).toMatchObject({ httpStatus: 502, retryable: true });
    expect(error.message).toContain('not JSON');
  });
});

describe('token validation answers', () => {
  it('a 200 that says Fail without any reason is still a failure', async () => {
    const app = Fastify();
    app.get('/jservice/pmsproperty', async () => ({ Status: 'Fail' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    await expect(validateToken(createHostClient(`http://127.0.0.1:${address.port}`), 'sandbox_x')).rejects.toThrow(
      /failed/,
    );
    await app.close();
  });
});
