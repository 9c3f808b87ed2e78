// What the pack test runs with the installed client, loaded by run-client.cjs (require) or
// run-client.mjs (import): one call to a running Trustgate and one webhook check; prints JSON.
// Input (JSON in TG_INPUT): { baseUrl, apiKey, sessionId, webhook: { body, headers, secret } }.
module.exports = async function call({ createTrustgateClient, verifyWebhook }) {
  const input = JSON.parse(process.env.TG_INPUT);
  const trustgate = createTrustgateClient({ baseUrl: input.baseUrl, apiKey: input.apiKey });
  const { data, error, response } = await trustgate.GET('/session/{session_id}', {
    params: { path: { session_id: input.sessionId } },
  });
  const event = verifyWebhook(input.webhook.body, input.webhook.headers, input.webhook.secret);
  console.log(
    JSON.stringify({ status: response.status, sessionId: data?.session_id, error, eventId: event.request_id }),
  );
};
