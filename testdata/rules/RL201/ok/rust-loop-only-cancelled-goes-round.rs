// Only a cancelled dial goes round (`DialCancelled`: another dial to the
// same peer won a tie-break and this one was dropped); every failure of
// the dial itself leaves at once. A cancelled attempt did not fail, so
// the loop does not retry a failure and needs neither a limit nor a delay.
use crate::connection_manager::PeerConnection;
use crate::connectivity::{ConnectivityError, ConnectivityRequester};

pub struct OutboundMessaging {
    connectivity: ConnectivityRequester,
    peer: NodeId,
}

impl OutboundMessaging {
    async fn dial(&mut self) -> Result<PeerConnection, ProtocolError> {
        loop {
            match self.connectivity.dial_peer(self.peer.clone()).await {
                Ok(conn) => break Ok(conn),
                Err(ConnectivityError::DialCancelled) => {
                    debug!("Dial to {} was cancelled by a tie-break. Retrying...", self.peer);
                    continue;
                }
                Err(err) => break Err(ProtocolError::DialFailed(err)),
            }
        }
    }
}
