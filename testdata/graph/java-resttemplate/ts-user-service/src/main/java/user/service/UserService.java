package user.service;

import edu.fudan.common.util.Response;
import user.dto.UserDto;

public interface UserService {
    Response saveUser(UserDto user);

    Response deleteUser(String userId);
}
