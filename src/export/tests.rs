use super::tilde;

#[test]
fn the_home_folder_is_written_as_a_tilde_only_where_it_is_a_path() {
    let home = "/home/ada";
    assert_eq!(tilde("cd /home/ada/src && ls", home), "cd ~/src && ls");
    assert_eq!(tilde("in /home/ada: done", home), "in ~: done");
    assert_eq!(tilde("<td>/home/ada</td>", home), "<td>~</td>");
    assert_eq!(tilde("\"/home/ada/x\"", home), "\"~/x\"");
    // Other folders that merely contain the name.
    assert_eq!(tilde("/home/adam/x", home), "/home/adam/x");
    assert_eq!(tilde("/mnt/home/ada/x", home), "/mnt/home/ada/x");
    assert_eq!(tilde("/home/ada/home/ada", home), "~/home/ada");
}
