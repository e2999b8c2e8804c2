"""nbgrader's configuration in every student's server of the class's hub (hub/set_up_image.py
installs it into the image's etc/jupyter/). The instructor's own nbgrader_config.py, written by
python -m minigrad_course.nbgrader_course, names the same course and exchange."""
c = get_config()  # noqa: F821 (nbgrader defines it)

# The course id the instructor releases under (nbgrader_course --course-id; "minigrad" unless
# changed there).
c.CourseDirectory.course_id = "minigrad"
# The exchange: a folder every student's server and the instructor's mount from one shared
# volume (ReadWriteMany), as docs/jupyterhub.md sets it up. nbgrader's own default,
# /usr/local/share/nbgrader/exchange, is in the image, where nothing is shared between pods.
c.Exchange.root = "/srv/nbgrader/exchange"
