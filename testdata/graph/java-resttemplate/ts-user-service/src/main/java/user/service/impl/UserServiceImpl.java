package user.service.impl;

import edu.fudan.common.util.Response;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestTemplate;
import user.dto.UserDto;
import user.service.UserService;

@Service
public class UserServiceImpl implements UserService {

    @Autowired
    private RestTemplate restTemplate;

    private static final String AUTH_SERVICE_URI = "http://ts-auth-service:12340/api/v1";

    @Override
    public Response saveUser(UserDto user) {
        HttpEntity<UserDto> entity = new HttpEntity<>(user, null);
        ResponseEntity<Response> res = restTemplate.exchange(AUTH_SERVICE_URI + "/auth",
                HttpMethod.POST,
                entity,
                Response.class);
        return res.getBody();
    }

    @Override
    public Response deleteUser(String userId) {
        restTemplate.exchange("http://ts-order-service:12031/api/v1/orderservice/order/user/" + userId,
                HttpMethod.DELETE, null, Response.class);
        return restTemplate.getForObject(
                "http://ts-verification-code-service:15678/api/v1/verifycode/" + userId,
                Response.class);
    }
}
