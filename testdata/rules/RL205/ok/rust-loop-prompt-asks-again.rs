// A prompt, not a retry (sigp/lighthouse's account manager and validator
// manager): a wrong password or an invalid mnemonic asks the user again;
// no service is called, so no limit, back-off or predicate is due.
use std::thread::sleep;
use std::time::Duration;

pub fn read_mnemonic(stdin_inputs: bool) -> Result<Mnemonic, String> {
    let mnemonic = loop {
        eprintln!("Enter the mnemonic phrase:");
        let phrase = read_input_from_user(stdin_inputs)?;
        match Mnemonic::from_phrase(phrase.as_str(), Language::English) {
            Ok(m) => {
                sleep(Duration::from_secs(1));
                break m;
            }
            Err(_) => eprintln!("Invalid mnemonic"),
        }
    };
    Ok(mnemonic)
}

pub async fn unlock(keystore: &Keystore, source: &mut PasswordSource) -> Keypair {
    loop {
        match source.read_password(&keystore.pubkey()) {
            Ok(password) => {
                if let Ok(kp) = keystore.decrypt_keypair(password.as_ref()) {
                    break kp;
                }
                eprintln!("Failed to decrypt keystore");
            }
            Err(e) => eprintln!("Retrying after error: {e:?}"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
