// One re-authentication pass, not a retry (risingwave vault_client.rs
// `get_secret`): only a 401/403 on the first pass goes round, with a flag
// that makes the next pass fetch a fresh token; every other error leaves.
pub async fn get_secret(&self) -> Result<Vec<u8>> {
    let mut force_refresh_token = false;
    for retry_count in 0..2 {
        let token = self.get_token_internal(force_refresh_token).await?;
        let response = self
            .client
            .get(self.url.as_str())
            .header("X-Vault-Token", &token)
            .send()
            .await
            .context("Failed to send request to Vault")?;
        if (response.status() == 401 || response.status() == 403) && retry_count == 0 {
            // the token changed while cached: trigger a refresh
            force_refresh_token = true;
            continue;
        }
        if !response.status().is_success() {
            return Err(anyhow::anyhow!("Vault API returned error status: {}", response.status()));
        }
        return self.process_secret_response(response).await;
    }
    Err(anyhow::anyhow!("Failed to get secret from Vault"))
}
